package com.meetingreminders.config;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.BaseConfig;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.redisson.config.SubscriptionMode;

/**
 * Redisson's core client, configured from {@code reminders.redis.*}: one node by default, a Redis Cluster when
 * {@code cluster-nodes} is set. The Redisson Quarkus extension does not build with our Quarkus.
 */
public class RedissonProducer {

    /** How often the client reads the cluster's layout, so that a replica promoted in a failover is used soon. */
    private static final int CLUSTER_SCAN_MILLIS = 1_000;

    @Produces
    @Singleton
    RedissonClient redisson(RemindersConfig config) {
        RedisConfig redis = config.redis();
        Config redissonConfig = new Config()
                .setCodec(StringCodec.INSTANCE)
                // Scripts go out as EVALSHA and are loaded again after a Redis restart empties the script cache.
                .setUseScriptCache(true)
                // Start even while Redis is down: the database is the truth, and reconciliation arms reminders later.
                .setLazyInitialization(true);
        redis.clusterNodes()
                .ifPresentOrElse(
                        nodes -> common(cluster(redissonConfig, nodes), redis),
                        () -> common(
                                redissonConfig
                                        .useSingleServer()
                                        .setAddress(redis.address())
                                        .setDatabase(redis.database()),
                                redis));
        return Redisson.create(redissonConfig);
    }

    private static ClusterServersConfig cluster(Config redissonConfig, List<String> nodes) {
        return redissonConfig
                .useClusterServers()
                .addNodeAddress(nodes.stream().map(String::trim).toArray(String[]::new))
                .setScanInterval(CLUSTER_SCAN_MILLIS)
                // A replica lags its master: a lease or claim read there could be one another replica already moved.
                .setReadMode(ReadMode.MASTER)
                // Only a master publishes the expiration of its keys; a replica hears DEL, not expired.
                .setSubscriptionMode(SubscriptionMode.MASTER);
    }

    private static <T extends BaseConfig<T>> void common(T server, RedisConfig redis) {
        int timeoutMillis = (int) redis.timeout().toMillis();
        server.setTimeout(timeoutMillis)
                .setConnectTimeout(timeoutMillis)
                // Fail fast while Redis is away: callers fall back on the sweep and on reconciliation.
                .setRetryAttempts(1);
        if (redis.nameConnections()) {
            server.setClientName(ReplicaName.redisClientName());
        }
        redis.username().ifPresent(server::setUsername);
        redis.password().ifPresent(server::setPassword);
    }

    void close(@Disposes RedissonClient redisson) {
        redisson.shutdown();
    }
}
