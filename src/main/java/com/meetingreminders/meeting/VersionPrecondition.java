package com.meetingreminders.meeting;

import com.meetingreminders.http.HeaderList;
import com.meetingreminders.http.InvalidBody;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** An If-Match header: which meeting versions a change may apply to. */
public record VersionPrecondition(Optional<Set<String>> acceptedTags) {

    static final String HEADER = "If-Match";

    private static final VersionPrecondition ANY = new VersionPrecondition(Optional.empty());

    /** RFC 9110's entity-tag: {@code "3"}, or weak, {@code W/"3"}. */
    private static final Pattern ENTITY_TAG = Pattern.compile("(W/)?\"[\\x21\\x23-\\x7e\\x80-\\xff]*\"");

    /**
     * What the header's lines, taken together, accept: no header (or a blank one) and {@code *} any version; otherwise
     * the listed entity tags, compared strongly, so that a weak one matches none. Empty when the header is neither,
     * such as an unquoted {@code 3}, which must not be read as a tag that merely fails to match.
     */
    public static Optional<VersionPrecondition> ifMatch(List<String> lines) {
        String header = lines == null ? "" : String.join(",", lines).strip();
        if (header.isEmpty() || header.equals("*")) {
            return Optional.of(ANY);
        }
        Set<String> strongTags = new HashSet<>();
        boolean anyTag = false;
        for (String member : HeaderList.members(header)) {
            if (!ENTITY_TAG.matcher(member).matches()) {
                return Optional.empty();
            }
            anyTag = true;
            if (!member.startsWith("W/")) {
                strongTags.add(member);
            }
        }
        return anyTag ? Optional.of(new VersionPrecondition(Optional.of(Set.copyOf(strongTags)))) : Optional.empty();
    }

    /** What the header's lines accept, or a 400 naming If-Match when they are not an If-Match header. */
    public static VersionPrecondition of(List<String> ifMatchLines) {
        return ifMatch(ifMatchLines)
                .orElseThrow(
                        () -> new InvalidBody(HEADER, "must be * or entity tags as ETag gives them, such as \"3\""));
    }

    /** The entity tag of a meeting version, quoted as HTTP wants it. */
    public static String entityTag(long version) {
        return "\"" + version + "\"";
    }

    /** Throws {@link StaleVersionException} unless the header accepts this version. */
    void check(long version) {
        if (!allows(version)) {
            throw new StaleVersionException(version);
        }
    }

    boolean allows(long version) {
        return acceptedTags.map(tags -> tags.contains(entityTag(version))).orElse(true);
    }
}
