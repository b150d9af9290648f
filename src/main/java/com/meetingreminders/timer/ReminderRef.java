package com.meetingreminders.timer;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;

/**
 * Names one reminder: a meeting and a send time. Its {@link #id()} is both the notification's deliveryId and the
 * member of the schedule in Redis.
 */
public record ReminderRef(UUID meetingId, Instant sendAt) {

    public ReminderRef {
        sendAt = sendAt.truncatedTo(ChronoUnit.MILLIS);
    }

    /** {@code {meetingId}:{sendAt in epoch milliseconds}}. */
    public String id() {
        return meetingId + ":" + sendAt.toEpochMilli();
    }

    /** The reference an {@link #id()} names, or empty for anything that is not one. */
    public static Optional<ReminderRef> parse(String id) {
        int colon = id.lastIndexOf(':');
        if (colon <= 0 || colon == id.length() - 1) {
            return Optional.empty();
        }
        try {
            UUID meetingId = UUID.fromString(id.substring(0, colon));
            long sendAtMillis = Long.parseLong(id.substring(colon + 1));
            ReminderRef ref = new ReminderRef(meetingId, Instant.ofEpochMilli(sendAtMillis));
            // UUID.fromString accepts short forms such as 1-1-1-1-1; only the canonical spelling is one of ours.
            return ref.id().equals(id) ? Optional.of(ref) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
