package com.meetingreminders.meeting;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.http.Problem;
import org.junit.jupiter.api.Test;

/** The 412 a stale If-Match gets: the problem it carries, word for word. */
class StaleVersionExceptionUnitTest {

    @Test
    void answersPreconditionFailedNamingTheCurrentVersionAndNoHeaders() {
        StaleVersionException stale = new StaleVersionException(3);

        assertThat(stale.problem())
                .isEqualTo(new Problem(
                        "about:blank",
                        "Precondition Failed",
                        412,
                        "The meeting has changed: its current version is 3; fetch it again before changing it.",
                        null));
        assertThat(stale.headers()).isEmpty();
        assertThat(stale.currentVersion()).isEqualTo(3);
    }
}
