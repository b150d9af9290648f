package com.meetingreminders.limits;

import com.meetingreminders.http.Problem;
import com.meetingreminders.http.ProblemException;
import jakarta.ws.rs.core.HttpHeaders;
import java.time.Duration;
import java.util.Map;

/**
 * A caller went over one of its fair-use limits ({@code reminders.limits.*}): the request is answered 429 with
 * {@code Retry-After} and stores nothing. The detail names the limit.
 */
public class LimitExceededException extends ProblemException {

    public LimitExceededException(String detail, Duration retryAfter) {
        super(Problem.limitExceeded(detail), Map.of(HttpHeaders.RETRY_AFTER, retryAfterSeconds(retryAfter)));
    }

    /** Whole seconds, at least one, as Retry-After takes them. */
    private static long retryAfterSeconds(Duration retryAfter) {
        long millis = Math.max(retryAfter.toMillis(), 1);
        return (millis + 999) / 1000;
    }
}
