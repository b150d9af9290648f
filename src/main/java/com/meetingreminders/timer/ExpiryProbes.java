package com.meetingreminders.timer;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisClusterMaster;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.cluster.ClusterSlotRange;

/**
 * Keys whose expiry proves that the subscriber hears a master of a Redis Cluster: one per current master, in a slot
 * that master serves, since a master publishes only the expirations of its own keys.
 */
@ApplicationScoped
public class ExpiryProbes {

    /** Enough candidate hash tags to land in any master's slots, however unevenly they are spread. */
    private static final int CANDIDATES = 100_000;

    private final RedissonClient redis;
    private final ReminderKeys keys;

    ExpiryProbes(RedissonClient redis, ReminderKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** A probe key for each master that serves slots, by the master's {@code host:port}. */
    public Map<String, String> keysByMaster() {
        Map<String, String> probes = new TreeMap<>();
        for (RedisClusterMaster master : redis.getRedisNodes(RedisNodes.CLUSTER).getMasters()) {
            String name = KeyspaceNotifications.name(master);
            List<ClusterSlotRange> served = master.clusterSlots().entrySet().stream()
                    .filter(range -> range.getValue().contains(name))
                    .map(Map.Entry::getKey)
                    .toList();
            for (int n = 0; n < CANDIDATES && !served.isEmpty(); n++) {
                int slot = ReminderKeys.slot(keys.probe(n));
                if (served.stream().anyMatch(range -> range.hasSlot(slot))) {
                    probes.put(name, keys.probe(n));
                    break;
                }
            }
        }
        return probes;
    }

    /**
     * Makes each key expire now: set with a 1 ms TTL, then read once it has run out, which has its master delete it
     * and publish {@code expired} at once rather than whenever its expiry cycle finds it.
     */
    public void expire(Collection<String> probeKeys) throws InterruptedException {
        for (String key : probeKeys) {
            redis.getBucket(key).set("", Duration.ofMillis(1));
        }
        Thread.sleep(2);
        for (String key : probeKeys) {
            redis.getBucket(key).isExists();
        }
    }
}
