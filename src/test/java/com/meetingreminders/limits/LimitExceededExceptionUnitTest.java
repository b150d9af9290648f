package com.meetingreminders.limits;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.http.Problem;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The 429 of a fair-use limit: its problem and its Retry-After in whole seconds. */
class LimitExceededExceptionUnitTest {

    @Test
    void answersTooManyRequestsWithTheLimitInTheDetail() {
        LimitExceededException over =
                new LimitExceededException("Over the limit meetings-held", Duration.ofSeconds(60));

        assertThat(over.problem())
                .isEqualTo(new Problem(
                        "/problems/limit-exceeded", "Limit exceeded", 429, "Over the limit meetings-held", null));
        assertThat(over.headers()).isEqualTo(Map.of("Retry-After", 60L));
    }

    @Test
    void roundsRetryAfterUpToAWholeSecondAndNeverBelowOne() {
        assertThat(new LimitExceededException("", Duration.ofMillis(1_200)).headers())
                .containsEntry("Retry-After", 2L);
        assertThat(new LimitExceededException("", Duration.ZERO).headers()).containsEntry("Retry-After", 1L);
    }
}
