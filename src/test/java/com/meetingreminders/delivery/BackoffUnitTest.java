package com.meetingreminders.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The wait before a failed reminder's next attempt: the first backoff, doubled per attempt, never past the cap. */
class BackoffUnitTest {

    private static final Duration FIRST = Duration.ofSeconds(30);
    private static final Duration CAP = Duration.ofMinutes(10);

    @ParameterizedTest(name = "after {0} attempts: {1}")
    @CsvSource({"1, PT30S", "2, PT1M", "3, PT2M", "4, PT4M", "5, PT8M", "6, PT10M", "7, PT10M"})
    void doublesPerAttemptUpToTheCap(int attemptsMade, Duration expected) {
        assertThat(DeliveryRound.backoffAfter(attemptsMade, FIRST, CAP)).isEqualTo(expected);
    }

    @Test
    void staysAtTheCapHoweverManyAttemptsWereMadeInsteadOfOverflowing() {
        assertThat(DeliveryRound.backoffAfter(64, FIRST, CAP)).isEqualTo(CAP);
        assertThat(DeliveryRound.backoffAfter(Integer.MAX_VALUE, FIRST, CAP)).isEqualTo(CAP);
    }

    @Test
    void aCapBelowTheFirstBackoffWins() {
        assertThat(DeliveryRound.backoffAfter(1, FIRST, Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aLongCapLetsTheDoublingGoOn() {
        assertThat(DeliveryRound.backoffAfter(11, Duration.ofMillis(1), Duration.ofDays(1)))
                .isEqualTo(Duration.ofMillis(1024));
    }
}
