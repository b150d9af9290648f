package com.meetingreminders.config;

import java.lang.management.ManagementFactory;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The name a replica goes by: its process and host, as the JVM names itself ({@code pid@host}), and a part drawn once
 * per process ({@code pid@host/3f9a1c2e}). {@code GET /admin/delivery} lists the replicas by it, and Redis's {@code
 * CLIENT LIST} shows it on each connection of the replica ({@code reminders.redis.name-connections}), so that an
 * operator can tell whose they are. The drawn part keeps apart replicas that share a host name and a process id, as
 * containers on the host's network do, each its JVM at PID 1: under one name, their heartbeats were one row, and one of
 * them could stop with the other still beating for it.
 */
public final class ReplicaName {

    /** What each replica's Redis client name starts with, before its id. */
    public static final String REDIS_CLIENT_PREFIX = "meeting-reminders:";

    /** The longest id: the column that keeps each replica's heartbeat ({@code replica.id}) holds no more. */
    static final int LONGEST = 255;

    /** Drawn on first use, at run time: a native image made at build time would otherwise keep its build's name. */
    private static final AtomicReference<String> SELF = new AtomicReference<>();

    private ReplicaName() {}

    /** This replica's id; the same on every call in this process. Never call it from a static initializer. */
    public static String self() {
        String known = SELF.get();
        if (known != null) {
            return known;
        }
        String drawn = of(
                ManagementFactory.getRuntimeMXBean().getName(),
                UUID.randomUUID().toString().substring(0, 8));
        return SELF.compareAndSet(null, drawn) ? drawn : SELF.get();
    }

    /**
     * The id of a process the JVM names {@code jvmName}, with {@code drawn} as its drawn part. A host's full name may
     * be up to 253 characters: the JVM's name is cut to leave room for the drawn part, which alone keeps replicas
     * apart, rather than the id being too long for the heartbeat's row and the replica missing from the list.
     */
    static String of(String jvmName, String drawn) {
        String suffix = "/" + drawn;
        return jvmName.substring(0, Math.min(jvmName.length(), LONGEST - suffix.length())) + suffix;
    }

    /** The client name of the replica's Redis connections: Redis takes only the characters from ! to ~ in one. */
    public static String redisClientName() {
        return REDIS_CLIENT_PREFIX + self().replaceAll("[^!-~]", "_");
    }
}
