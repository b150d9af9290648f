package com.meetingreminders.timer;

import com.meetingreminders.config.RemindersConfig;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;

/**
 * Redis's {@code notify-keyspace-events} on every master: the event path needs E (keyevent channels) and x (expired
 * events), and in a cluster each master publishes only the expirations of its own keys. Without them, or where CONFIG
 * is forbidden, reminders are still delivered, by the sweep alone.
 */
@ApplicationScoped
public class KeyspaceNotifications {

    static final String SETTING = "notify-keyspace-events";

    private final RedissonClient redis;
    private final boolean configure;
    private final boolean cluster;

    KeyspaceNotifications(RedissonClient redis, RemindersConfig config) {
        this.redis = redis;
        this.configure = config.redis().configureNotifications();
        this.cluster = config.redis().cluster();
    }

    /** Adds E and x to the flags already set on every master, unless configured not to; logs what to do where it cannot. */
    public void apply() {
        masters().forEach(this::apply);
    }

    private void apply(RedisNode master) {
        Optional<String> flags = current(master);
        if (flags.isPresent() && deliversExpiredEvents(flags.get())) {
            return;
        }
        if (configure && flags.isPresent()) {
            String wanted = withExpiredEvents(flags.get());
            try {
                master.setConfig(SETTING, wanted);
                Log.infof("Set %s to '%s' on %s so that Redis publishes expired events", SETTING, wanted, name(master));
                return;
            } catch (RuntimeException e) {
                Log.debugf("CONFIG SET refused by %s: %s", name(master), e.getMessage());
            }
        }
        Log.warnf(
                "Redis %s does not publish expired events and the service may not turn them on: run"
                        + " 'CONFIG SET %s Ex' on it (or add E and x to it in its redis.conf) for prompt reminders;"
                        + " until then the sweeper alone delivers the reminders it holds",
                name(master), SETTING);
    }

    /** Whether every master publishes expired events; empty if one is down or forbids CONFIG. */
    public Optional<Boolean> enabled() {
        try {
            return enabled(masters());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether each of these masters publishes expired events; empty if one is down or forbids CONFIG. */
    public Optional<Boolean> enabled(List<RedisNode> masters) {
        boolean all = true;
        for (RedisNode master : masters) {
            Optional<String> flags = current(master);
            if (flags.isEmpty()) {
                return Optional.empty();
            }
            all &= deliversExpiredEvents(flags.get());
        }
        return Optional.of(all);
    }

    /** The one node, or every master of the cluster as the client last read its layout. */
    public List<RedisNode> masters() {
        return cluster
                ? new ArrayList<>(redis.getRedisNodes(RedisNodes.CLUSTER).getMasters())
                : List.of(redis.getRedisNodes(RedisNodes.SINGLE).getInstance());
    }

    public boolean cluster() {
        return cluster;
    }

    /** {@code host:port}, as Redis Cluster names its nodes. */
    static String name(RedisNode node) {
        InetSocketAddress address = node.getAddr();
        String host = address.getAddress() == null
                ? address.getHostString()
                : address.getAddress().getHostAddress();
        return host + ":" + address.getPort();
    }

    private static Optional<String> current(RedisNode master) {
        try {
            return Optional.ofNullable(master.getConfig(SETTING).get(SETTING));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    static boolean deliversExpiredEvents(String flags) {
        return flags.contains("E") && (flags.contains("x") || flags.contains("A"));
    }

    static String withExpiredEvents(String flags) {
        String wanted = flags.contains("E") ? flags : flags + "E";
        return wanted.contains("x") || wanted.contains("A") ? wanted : wanted + "x";
    }
}
