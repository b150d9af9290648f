package com.meetingreminders.support;

import java.util.UUID;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A Redis key prefix of the test's own, for replicas that share the machine's Redis; the keys under it are deleted
 * after each test, so that runs leave nothing behind.
 */
public final class OwnKeyPrefix implements AfterEachCallback {

    private final String prefix = "it-" + UUID.randomUUID() + ":";

    public String prefix() {
        return prefix;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        deleteKeys();
    }

    /** For test engines other than Jupiter, which call it themselves. */
    public void deleteKeys() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + RedisServer.MACHINE_PORT);
        RedissonClient redis = Redisson.create(config);
        try {
            redis.getKeys().deleteByPattern(prefix + "*");
        } finally {
            redis.shutdown();
        }
    }
}
