package com.meetingreminders.config;

import java.lang.management.ManagementFactory;

/**
 * The name a replica goes by: its process and host, as the JVM names itself ({@code pid@host}), unique among the
 * replicas of one machine and across machines. {@code GET /admin/delivery} lists the replicas by it, and Redis's
 * {@code CLIENT LIST} shows it on each connection of the replica, so that an operator can tell whose they are.
 */
public final class ReplicaName {

    private ReplicaName() {}

    /** Read when asked, never kept in a static: a native image would otherwise keep its build's name. */
    public static String self() {
        return ManagementFactory.getRuntimeMXBean().getName();
    }

    /** The client name of the replica's Redis connections; Redis refuses a name with a space or a newline. */
    public static String redisClientName() {
        return "meeting-reminders:" + self().replaceAll("\\s", "_");
    }
}
