package com.meetingreminders.http;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Optional;

/**
 * Which of the types an answer can take Accept ranks highest (RFC 9110, section 12.5.1): each type gets the q of the
 * most specific range that names it, a range's parameters other than q are not compared, {@code q=0} rules a type out,
 * and a tie goes to the type offered first. JAX-RS's {@code Request.selectVariant} was tried: it rules out a type for a
 * range with any other parameter ({@code application/json; charset=utf-8}) and fails on a range that ends in
 * {@code q=}.
 */
public final class AcceptedType {

    private static final String QUALITY = "q";

    private AcceptedType() {}

    /** The type to answer in, or empty when Accept rules out every one offered: a 406. */
    public static Optional<MediaType> among(HttpHeaders headers, List<MediaType> offered) {
        List<MediaType> ranges;
        try {
            ranges = headers.getAcceptableMediaTypes();
        } catch (RuntimeException unreadable) {
            // Not seen with RESTEasy Reactive 3.27, whose reader skips what it cannot read; should a later one throw,
            // Accept is disregarded, as RFC 9110 lets a server do, rather than answered 500.
            return Optional.of(offered.get(0));
        }
        MediaType best = null;
        double bestQuality = 0;
        for (MediaType type : offered) {
            double quality = qualityOf(type, ranges);
            if (quality > bestQuality) {
                best = type;
                bestQuality = quality;
            }
        }
        return Optional.ofNullable(best);
    }

    private static double qualityOf(MediaType type, List<MediaType> ranges) {
        int specificity = -1;
        double quality = 0;
        for (MediaType range : ranges) {
            int rangeSpecificity = specificity(range, type);
            if (rangeSpecificity > specificity) {
                specificity = rangeSpecificity;
                quality = qualityOf(range);
            }
        }
        return quality;
    }

    /** 2 for the type itself, 1 for its type/*, 0 for {@code *}/*, -1 for a range that does not name it. */
    private static int specificity(MediaType range, MediaType type) {
        if (range.isWildcardType()) {
            return 0;
        }
        if (!range.getType().equalsIgnoreCase(type.getType())) {
            return -1;
        }
        if (range.isWildcardSubtype()) {
            return 1;
        }
        return range.getSubtype().equalsIgnoreCase(type.getSubtype()) ? 2 : -1;
    }

    private static double qualityOf(MediaType range) {
        String quality = range.getParameters().get(QUALITY);
        if (quality == null) {
            return 1;
        }
        try {
            double value = Double.parseDouble(quality.trim());
            return value >= 0 && value <= 1 ? value : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
