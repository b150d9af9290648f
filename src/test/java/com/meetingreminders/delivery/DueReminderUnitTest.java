package com.meetingreminders.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.reminder.ReminderStatus;
import com.meetingreminders.timer.ReminderRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The time rules of a due reminder: too late, waiting for a retry, and what a failed attempt makes of it. */
class DueReminderUnitTest {

    private static final Instant STARTS = Instant.parse("2026-11-23T09:00:00Z");
    private static final Instant SEND_AT = STARTS.minus(Duration.ofMinutes(15));
    private static final Duration CUTOFF = Duration.ofMinutes(5);

    private static DueReminder due(int attempts, Instant nextAttemptAt, List<String> sentTo) {
        return new DueReminder(
                7L,
                new ReminderRef(UUID.fromString("3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b"), SEND_AT),
                "PT15M",
                ReminderStatus.SCHEDULED,
                attempts,
                nextAttemptAt,
                sentTo,
                "Stand-up",
                STARTS,
                "Europe/Berlin",
                List.of("a@example.com"),
                "https://hooks.example.com/x",
                "owner",
                null,
                STARTS);
    }

    @Test
    void isNeverTooLateBeforeTheMeetingStartsHoweverLateItIs() {
        assertThat(due(0, null, List.of()).isTooLate(STARTS.minusMillis(1), CUTOFF))
                .isFalse();
    }

    @Test
    void isTooLateOnlyOnceTheMeetingHasStartedAndTheCutoffHasPassed() {
        DueReminder reminder = due(0, null, List.of());
        // The send time is 15 minutes before the start: at the start the reminder is 15 minutes late.
        assertThat(reminder.isTooLate(STARTS, Duration.ofMinutes(15))).isFalse();
        assertThat(reminder.isTooLate(STARTS, Duration.ofMinutes(14))).isTrue();
        assertThat(reminder.isTooLate(STARTS.plus(Duration.ofHours(1)), CUTOFF)).isTrue();
    }

    @Test
    void waitsForItsRetryUntilTheNextAttemptTime() {
        Instant next = STARTS.minus(Duration.ofMinutes(10));
        DueReminder reminder = due(1, next, List.of());

        assertThat(reminder.isWaitingForRetry(next.minusMillis(1))).isTrue();
        assertThat(reminder.isWaitingForRetry(next)).isFalse();
        assertThat(due(0, null, List.of()).isWaitingForRetry(SEND_AT)).isFalse();
    }

    @Test
    void aFailedAttemptWithAttemptsLeftIsTriedAgainAfterTheBackoffForTheAttemptsMade() {
        Instant now = SEND_AT.plusSeconds(1);

        DueReminder.Failure failure =
                due(1, null, List.of()).afterFailure("503", List.of(), 5, now, made -> Duration.ofSeconds(10L * made));

        assertThat(failure.attempts()).isEqualTo(2);
        assertThat(failure.status()).isEqualTo(ReminderStatus.SCHEDULED);
        assertThat(failure.nextAttemptAt()).isEqualTo(now.plusSeconds(20));
        assertThat(failure.isFinal()).isFalse();
    }

    @Test
    void theLastAttemptFailsTheReminderForGood() {
        DueReminder.Failure failure =
                due(4, null, List.of()).afterFailure("503", List.of(), 5, SEND_AT, made -> Duration.ofSeconds(1));

        assertThat(failure.status()).isEqualTo(ReminderStatus.FAILED);
        assertThat(failure.nextAttemptAt()).isNull();
        assertThat(failure.isFinal()).isTrue();
    }

    @Test
    void remembersWhomEachAttemptReachedAndKeepsTheErrorShort() {
        DueReminder reminder = due(1, null, List.of("webhook"));

        DueReminder.Failure failure = reminder.afterFailure(
                "x".repeat(10_000), List.of("email:a@example.com"), 5, SEND_AT, made -> Duration.ZERO);

        assertThat(failure.sentTo()).containsExactly("webhook", "email:a@example.com");
        assertThat(failure.error()).hasSize(DueReminder.MAX_ERROR_LENGTH);
    }
}
