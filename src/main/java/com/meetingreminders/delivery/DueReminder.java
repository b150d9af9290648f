package com.meetingreminders.delivery;

import com.meetingreminders.notify.Notification;
import com.meetingreminders.reminder.ReminderStatus;
import com.meetingreminders.timer.ReminderRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/** A reminder as a delivery round reads it: its state, and what its notification needs of its meeting. */
record DueReminder(
        long id,
        ReminderRef ref,
        String remindBefore,
        ReminderStatus status,
        int attempts,
        Instant nextAttemptAt,
        List<String> sentTo,
        String title,
        Instant startsAt,
        String timeZone,
        List<String> attendees,
        String webhookUrl,
        String owner,
        String traceParent,
        Instant occurrence) {

    /** What {@code last_error} holds at most. */
    static final int MAX_ERROR_LENGTH = 500;

    boolean isScheduled() {
        return status == ReminderStatus.SCHEDULED;
    }

    /** True while a failed reminder waits for its next attempt. */
    boolean isWaitingForRetry(Instant now) {
        return nextAttemptAt != null && nextAttemptAt.isAfter(now);
    }

    /** A reminder is not worth sending once its meeting has started and it is later than the cut-off. */
    boolean isTooLate(Instant now, Duration lateCutoff) {
        return !startsAt.isAfter(now) && Duration.between(ref.sendAt(), now).compareTo(lateCutoff) > 0;
    }

    Notification notification() {
        return new Notification(
                ref.id(),
                ref.meetingId(),
                title,
                startsAt,
                occurrence,
                ref.sendAt(),
                remindBefore,
                timeZone,
                attendees);
    }

    /**
     * What a failed attempt makes of the reminder: FAILED once no attempt is left; otherwise still SCHEDULED, to be
     * tried again after the backoff for the attempts made so far. What the attempt did reach is not sent again.
     */
    Failure afterFailure(
            String error, List<String> reached, int maxAttempts, Instant now, IntFunction<Duration> backoffAfter) {
        int made = attempts + 1;
        String trimmed = error.length() > MAX_ERROR_LENGTH ? error.substring(0, MAX_ERROR_LENGTH) : error;
        List<String> sent = new ArrayList<>(sentTo);
        sent.addAll(reached);
        return made >= maxAttempts
                ? new Failure(id, made, trimmed, ReminderStatus.FAILED, null, sent)
                : new Failure(id, made, trimmed, ReminderStatus.SCHEDULED, now.plus(backoffAfter.apply(made)), sent);
    }

    /** A failed attempt as the database records it. */
    record Failure(
            long id, int attempts, String error, ReminderStatus status, Instant nextAttemptAt, List<String> sentTo) {

        boolean isFinal() {
            return status == ReminderStatus.FAILED;
        }
    }
}
