package com.meetingreminders.config;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.SingleServerConfig;

/** Redisson's core client, configured from {@code reminders.redis.*}; the Redisson Quarkus extension does not build with our Quarkus. */
public class RedissonProducer {

    @Produces
    @Singleton
    RedissonClient redisson(RemindersConfig config) {
        RemindersConfig.Redis redis = config.redis();
        int timeoutMillis = (int) redis.timeout().toMillis();
        Config redissonConfig = new Config()
                .setCodec(StringCodec.INSTANCE)
                // Scripts go out as EVALSHA and are loaded again after a Redis restart empties the script cache.
                .setUseScriptCache(true)
                // Start even while Redis is down: the database is the truth, and reconciliation arms reminders later.
                .setLazyInitialization(true);
        SingleServerConfig server = redissonConfig
                .useSingleServer()
                .setAddress(redis.address())
                .setDatabase(redis.database())
                .setTimeout(timeoutMillis)
                .setConnectTimeout(timeoutMillis)
                // Fail fast while Redis is away: callers fall back on the sweep and on reconciliation.
                .setRetryAttempts(1);
        redis.username().ifPresent(server::setUsername);
        redis.password().ifPresent(server::setPassword);
        return Redisson.create(redissonConfig);
    }

    void close(@Disposes RedissonClient redisson) {
        redisson.shutdown();
    }
}
