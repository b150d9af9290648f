package com.meetingreminders.support;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One connection of the machine's Redis as {@code CLIENT LIST} shows it: its address, the name its client gave it, and
 * how many channels and patterns it subscribes to (shard channels are not counted).
 */
public record RedisClient(String address, String name, int subscriptions) {

    /** The machine's Redis's connections, as they are now. */
    public static List<RedisClient> onMachine() {
        return RedisServer.cliOnMachine("CLIENT", "LIST")
                .lines()
                .map(RedisClient::parse)
                .toList();
    }

    /** A line of {@code CLIENT LIST}: fields of {@code key=value} separated by spaces, which no value holds. */
    static RedisClient parse(String line) {
        Map<String, String> fields = new HashMap<>();
        for (String field : line.split(" ")) {
            int equals = field.indexOf('=');
            if (equals > 0) {
                fields.put(field.substring(0, equals), field.substring(equals + 1));
            }
        }
        return new RedisClient(
                fields.getOrDefault("addr", ""),
                fields.getOrDefault("name", ""),
                count(fields, "sub") + count(fields, "psub"));
    }

    private static int count(Map<String, String> fields, String key) {
        return Integer.parseInt(fields.getOrDefault(key, "0"));
    }

    public boolean subscribes() {
        return subscriptions > 0;
    }
}
