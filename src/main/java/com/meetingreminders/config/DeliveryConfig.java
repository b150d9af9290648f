package com.meetingreminders.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code reminders.delivery.*}: attempts, retries and how much a replica delivers at once. */
public interface DeliveryConfig {
    /** Attempts after which a reminder that could not be delivered is FAILED. */
    @WithDefault("8")
    int maxAttempts();

    /** Delay before the first retry; it doubles with every further attempt. */
    @WithDefault("1s")
    Duration backoff();

    /** Longest delay between two attempts. */
    @WithDefault("5m")
    Duration maxBackoff();

    /**
     * How late a reminder may still go out once its meeting has started; a later one is SKIPPED. Before the
     * meeting starts, a late reminder is always sent.
     */
    @WithDefault("1m")
    Duration lateCutoff();

    /**
     * Threads that do the database work of delivery rounds (lock, record, commit); a round holds none while its
     * notifications are out.
     */
    @WithDefault("4")
    int workers();

    /**
     * Delivery rounds under way at once, sends out included; each holds one database connection (and its row
     * locks) until its outcomes are recorded, so keep it well below the datasource's max-size.
     */
    @WithDefault("16")
    int roundsInFlight();

    /** Most reminders one delivery round takes. */
    @WithDefault("100")
    int batchSize();

    /**
     * Synthetic sends through the real delivery code (notification, JSON, signature, webhook client, the round's SQL
     * and claim script) to a receiver of the replica's own on loopback, before it reports ready, so that its first
     * reminders do not pay for a cold JVM; 0 turns the warm-up off.
     */
    @WithDefault("2000")
    int warmUpSends();

    /** The longest the warm-up may keep a replica unready: it stops there, however few it sent. */
    @WithDefault("20s")
    Duration warmUpTime();
}
