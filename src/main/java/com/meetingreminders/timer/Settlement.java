package com.meetingreminders.timer;

import java.time.Duration;
import java.util.Optional;

/** What became of a schedule entry a replica held: finished, or due again after a delay. */
public record Settlement(ReminderRef ref, Optional<Duration> dueAgainIn) {

    public static Settlement finished(ReminderRef ref) {
        return new Settlement(ref, Optional.empty());
    }

    public static Settlement dueAgainIn(ReminderRef ref, Duration delay) {
        return new Settlement(ref, Optional.of(delay));
    }
}
