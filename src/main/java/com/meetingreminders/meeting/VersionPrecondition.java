package com.meetingreminders.meeting;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** An If-Match header: which meeting versions a change may apply to. */
public record VersionPrecondition(Optional<Set<String>> acceptedTags) {

    private static final VersionPrecondition ANY = new VersionPrecondition(Optional.empty());

    /** No header and {@code *} accept any version; otherwise the listed entity tags, compared strongly. */
    public static VersionPrecondition ifMatch(String header) {
        if (header == null || header.isBlank() || header.trim().equals("*")) {
            return ANY;
        }
        Set<String> tags = Arrays.stream(header.split(","))
                .map(String::trim)
                .filter(tag -> !tag.isEmpty())
                .collect(Collectors.toSet());
        return new VersionPrecondition(Optional.of(tags));
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
