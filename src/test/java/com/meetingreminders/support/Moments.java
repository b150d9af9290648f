package com.meetingreminders.support;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for the wall clock to reach a moment. For scenarios that must act at a given time (a change 50 ms before a
 * send time), never to wait for something to happen: that is what Awaitility conditions are for.
 */
public final class Moments {

    private Moments() {}

    public static void waitUntil(Instant moment) {
        long nanos;
        while ((nanos = Duration.between(Instant.now(), moment).toNanos()) > 0) {
            LockSupport.parkNanos(nanos);
        }
    }

    /** Now, in the whole milliseconds the service works in. */
    public static Instant now() {
        return Instant.ofEpochMilli(System.currentTimeMillis());
    }
}
