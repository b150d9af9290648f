package com.meetingreminders.http;

import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which of the types an answer can take Accept ranks highest (RFC 9110, section 12.5.1): each type gets the q of the
 * most specific range that names it, a range's parameters other than q are not compared, {@code q=0} rules a type out,
 * and a tie goes to the type offered first. The header is read range by range, and a range that cannot be read is
 * skipped: JAX-RS's {@code Request.selectVariant} rules out a type for a range with any other parameter
 * ({@code application/json; charset=utf-8}) and fails on a range that ends in {@code q=}, and RESTEasy's
 * {@code getAcceptableMediaTypes} refuses the whole header for one range whose q is no number.
 */
public final class AcceptedType {

    private AcceptedType() {}

    /** The type to answer in; a 406 when Accept rules out every one offered. */
    public static MediaType among(HttpHeaders headers, List<MediaType> offered) {
        List<String> lines = headers.getRequestHeader(HttpHeaders.ACCEPT);
        List<MediaType> ranges = lines == null || lines.isEmpty() ? List.of(MediaType.WILDCARD_TYPE) : ranges(lines);
        MediaType best = null;
        double bestQuality = 0;
        for (MediaType type : offered) {
            double quality = qualityOf(type, ranges);
            if (quality > bestQuality) {
                best = type;
                bestQuality = quality;
            }
        }
        if (best == null) {
            throw new NotAcceptableException();
        }
        return best;
    }

    private static List<MediaType> ranges(List<String> lines) {
        List<MediaType> ranges = new ArrayList<>();
        for (String line : lines) {
            for (String range : HeaderList.members(line)) {
                try {
                    ranges.add(MediaType.valueOf(range));
                } catch (RuntimeException unreadable) {
                    // One range that is none (text, or a/b/c) does not cost the others.
                }
            }
        }
        return ranges;
    }

    private static double qualityOf(MediaType type, List<MediaType> ranges) {
        int specificity = -1;
        double quality = 0;
        for (MediaType range : ranges) {
            int rangeSpecificity = specificity(range, type);
            if (rangeSpecificity < 0) {
                continue;
            }
            double rangeQuality = qualityOf(range);
            if (rangeSpecificity > specificity || (rangeSpecificity == specificity && rangeQuality > quality)) {
                specificity = rangeSpecificity;
                quality = rangeQuality;
            }
        }
        return quality;
    }

    /** 2 for the type itself, 1 for its type/*, 0 for {@code *}/*, -1 for a range that does not name it. */
    private static int specificity(MediaType range, MediaType type) {
        String rangeType = range.getType().strip();
        String rangeSubtype = range.getSubtype().strip();
        if (rangeType.equals(MediaType.MEDIA_TYPE_WILDCARD)) {
            // */json is no range of RFC 9110's: it names nothing.
            return rangeSubtype.equals(MediaType.MEDIA_TYPE_WILDCARD) ? 0 : -1;
        }
        if (!rangeType.equalsIgnoreCase(type.getType())) {
            return -1;
        }
        if (rangeSubtype.equals(MediaType.MEDIA_TYPE_WILDCARD)) {
            return 1;
        }
        return rangeSubtype.equalsIgnoreCase(type.getSubtype()) ? 2 : -1;
    }

    /** The range's q; 1 when it has none, or one that is no number from 0 to 1. */
    private static double qualityOf(MediaType range) {
        for (Map.Entry<String, String> parameter : range.getParameters().entrySet()) {
            if (parameter.getKey().strip().equalsIgnoreCase("q")) {
                try {
                    double value = Double.parseDouble(parameter.getValue().strip());
                    return value >= 0 && value <= 1 ? value : 1;
                } catch (NumberFormatException e) {
                    return 1;
                }
            }
        }
        return 1;
    }
}
