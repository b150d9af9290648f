package com.meetingreminders.meeting;

import com.meetingreminders.http.InvalidBody;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The body of PATCH /meetings/{id}/occurrences/{occurrence}: exactly one of a new start or a cancellation. */
public record OccurrenceChange(
        @Schema(
                        examples = "2027-03-30T07:00:00Z",
                        description = "Where the occurrence now takes place, an ISO-8601 instant with offset, in the"
                                + " range of a meeting's startsAt; its own original start undoes a move or a"
                                + " cancellation")
                @StartsInRange
                OffsetDateTime startsAt,
        @Schema(examples = "true", description = "true cancels the occurrence") Boolean cancelled) {

    static final String RULE = "give either startsAt or \"cancelled\": true";

    /** The new start; empty for a cancellation. Refuses, as a 400, a body with both, neither, or cancelled false. */
    Optional<Instant> movedTo() {
        boolean cancels = Boolean.TRUE.equals(cancelled);
        if (startsAt != null && cancelled != null) {
            throw new InvalidBody("cancelled", RULE + ", not both");
        }
        if (startsAt == null && !cancels) {
            throw new InvalidBody(cancelled == null ? "startsAt" : "cancelled", RULE);
        }
        return Optional.ofNullable(startsAt).map(at -> at.toInstant().truncatedTo(ChronoUnit.MILLIS));
    }
}
