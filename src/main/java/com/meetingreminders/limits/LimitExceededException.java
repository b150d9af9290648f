package com.meetingreminders.limits;

import java.time.Duration;

/**
 * A caller went over one of its fair-use limits ({@code reminders.limits.*}): the request is answered 429 with
 * {@code Retry-After} and stores nothing. The message is the problem's detail, naming the limit.
 */
public class LimitExceededException extends RuntimeException {

    private final Duration retryAfter;

    public LimitExceededException(String detail, Duration retryAfter) {
        // An expected answer, not a fault: no stack trace to fill in.
        super(detail, null, false, false);
        this.retryAfter = retryAfter;
    }

    /** Whole seconds, at least one, as Retry-After takes them. */
    public long retryAfterSeconds() {
        long millis = Math.max(retryAfter.toMillis(), 1);
        return (millis + 999) / 1000;
    }
}
