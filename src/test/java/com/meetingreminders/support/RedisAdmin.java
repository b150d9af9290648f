package com.meetingreminders.support;

import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;

/** What a test does to the real Redis behind the service's back. */
public final class RedisAdmin {

    public static final String NOTIFY_KEYSPACE_EVENTS = "notify-keyspace-events";

    private RedisAdmin() {}

    public static String notifyKeyspaceEvents(RedissonClient redis) {
        return node(redis).getConfig(NOTIFY_KEYSPACE_EVENTS).get(NOTIFY_KEYSPACE_EVENTS);
    }

    public static void setNotifyKeyspaceEvents(RedissonClient redis, String flags) {
        node(redis).setConfig(NOTIFY_KEYSPACE_EVENTS, flags);
    }

    private static RedisNode node(RedissonClient redis) {
        return redis.getRedisNodes(RedisNodes.SINGLE).getInstance();
    }
}
