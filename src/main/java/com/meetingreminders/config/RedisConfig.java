package com.meetingreminders.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** {@code reminders.redis.*}: where the timers live. */
public interface RedisConfig {
    /** Redis address, {@code redis://host:port} or {@code rediss://host:port} for TLS. */
    @WithDefault("redis://127.0.0.1:6379")
    String address();

    /** Redis database of the timers; the expiration events are read from the same one. */
    @WithDefault("0")
    int database();

    /** Redis ACL user name. */
    Optional<String> username();

    /** Redis password. */
    Optional<String> password();

    /** How long one Redis command may take before it counts as failed. */
    @WithDefault("2s")
    Duration timeout();

    /** Every key the service writes starts with it. */
    @WithDefault("reminders:")
    String keyPrefix();

    /** At start, add E and x to notify-keyspace-events (keeping flags already set). */
    @WithDefault("true")
    boolean configureNotifications();

    /**
     * Name each connection {@code meeting-reminders:<pid@host>} ({@code CLIENT SETNAME} as it opens), so that
     * {@code CLIENT LIST} tells which replica holds it. Turn it off where the ACL user may not run {@code CLIENT
     * SETNAME}: a connection whose naming is refused does not open.
     */
    @WithDefault("true")
    boolean nameConnections();

    /**
     * Seed nodes of a Redis Cluster, comma-separated {@code redis://host:port}; when set, the service runs in
     * cluster mode and {@code address} and {@code database} are not used.
     */
    Optional<List<String>> clusterNodes();

    /** Whether the service runs against a Redis Cluster: it does exactly when seed nodes are given. */
    default boolean cluster() {
        return clusterNodes().isPresent();
    }

    /**
     * Shards of the schedule, each with its keys in one hash slot. Default: 1 on a single node (the keys are named
     * as they always were), 12 in cluster mode (several per master of a usual cluster, so a master's share of the
     * sweep moves with its slots on a resharding or failover).
     */
    OptionalInt shards();

    /**
     * How often a replica in cluster mode checks that it hears expiration events from every current master,
     * turning them on and subscribing again where it does not.
     */
    @WithDefault("10s")
    Duration mastersCheckInterval();

    /** How often a replica whose subscriptions to Redis failed (Redis down at start) tries them again. */
    @WithDefault("1s")
    Duration resubscribeInterval();
}
