package com.meetingreminders.config;

import java.lang.management.ManagementFactory;

/**
 * The name a replica goes by: its process and host, as the JVM names itself ({@code pid@host}). {@code GET
 * /admin/delivery} lists the replicas by it, and Redis's {@code CLIENT LIST} shows it on each connection of the replica
 * ({@code reminders.redis.name-connections}), so that an operator can tell whose they are. Two replicas share it only
 * when they share both a host name and a process id, as containers on the host's network do, each its JVM at PID 1.
 */
public final class ReplicaName {

    /** What each replica's Redis client name starts with, before its id. */
    public static final String REDIS_CLIENT_PREFIX = "meeting-reminders:";

    private ReplicaName() {}

    /** Read when asked, never kept in a static: a native image would otherwise keep its build's name. */
    public static String self() {
        return ManagementFactory.getRuntimeMXBean().getName();
    }

    /** The client name of the replica's Redis connections: Redis takes only the characters from ! to ~ in one. */
    public static String redisClientName() {
        return REDIS_CLIENT_PREFIX + self().replaceAll("[^!-~]", "_");
    }
}
