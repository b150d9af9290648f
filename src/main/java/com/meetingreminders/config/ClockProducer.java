package com.meetingreminders.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.validation.ClockProvider;
import java.time.Clock;
import java.time.Duration;

/**
 * The one clock of the service. It ticks in whole milliseconds, the precision of send times and of what the API
 * returns; Redis scripts use Redis server time instead, so that replicas agree.
 */
public class ClockProducer {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));
    }

    /** Lets {@code @Future} and its kin read the same clock. */
    @Produces
    @Singleton
    ClockProvider clockProvider(Clock clock) {
        return () -> clock;
    }
}
