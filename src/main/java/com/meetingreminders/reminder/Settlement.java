package com.meetingreminders.reminder;

import java.time.Duration;
import java.util.Optional;

/** What became of a schedule entry a replica held: finished, or due again after a delay. */
record Settlement(ReminderRef ref, Optional<Duration> dueAgainIn) {

    static Settlement finished(ReminderRef ref) {
        return new Settlement(ref, Optional.empty());
    }

    static Settlement dueAgainIn(ReminderRef ref, Duration delay) {
        return new Settlement(ref, Optional.of(delay));
    }
}
