package com.meetingreminders.timer;

import com.meetingreminders.config.RemindersConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.zip.CRC32;
import org.redisson.connection.CRC16;

/**
 * Every Redis key and channel name the service uses, all under {@code reminders.redis.key-prefix}. A trigger key and a
 * claim key are their shard's prefix followed by the reminder's {@link ReminderRef#id()}; the Lua scripts build them
 * that way. With more than one shard, a shard's keys carry its hash tag ({@code prefix{s3}:schedule}), so that each
 * script touches one slot of a Redis Cluster; with one shard, the keys are named as they always were.
 */
@ApplicationScoped
public class ReminderKeys {

    /** Shards in cluster mode unless configured: several per master of a usual cluster. */
    static final int CLUSTER_SHARDS = 12;

    private static final int CLUSTER_SLOTS = 16_384;
    private static final String SHARD_TAG = "{s";
    private static final String TRIGGER = "}:trigger:";

    private final String prefix;
    private final int shards;

    @Inject
    ReminderKeys(RemindersConfig config) {
        this(
                config.redis().keyPrefix(),
                config.redis().shards().orElse(config.redis().cluster() ? CLUSTER_SHARDS : 1));
    }

    ReminderKeys(String prefix) {
        this(prefix, 1);
    }

    ReminderKeys(String prefix, int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("reminders.redis.shards must be at least 1, not " + shards);
        }
        if (shards > 1 && prefix.contains("{")) {
            throw new IllegalArgumentException("With shards, reminders.redis.key-prefix may not hold a hash tag");
        }
        this.prefix = prefix;
        this.shards = shards;
    }

    public int shards() {
        return shards;
    }

    /** A stable function of the reminder's id, so that every replica finds its entry in the same shard. */
    public int shardOf(ReminderRef ref) {
        if (shards == 1) {
            return 0;
        }
        CRC32 crc = new CRC32();
        crc.update(ref.id().getBytes(StandardCharsets.US_ASCII));
        return (int) (crc.getValue() % shards);
    }

    private String shardPrefix(int shard) {
        return shards == 1 ? prefix : prefix + SHARD_TAG + shard + "}:";
    }

    /** ZSET of the shard's armed reminders, scored by when each is next due. */
    public String schedule(int shard) {
        return shardPrefix(shard) + "schedule";
    }

    /** How far ahead (epoch ms) sweeps have given the shard's entries trigger keys. */
    String armedUntil(int shard) {
        return shardPrefix(shard) + "armed-until";
    }

    /** Present once every scheduled reminder of the shard is armed; gone means Redis lost its keys. */
    String reconciled(int shard) {
        return shardPrefix(shard) + "reconciled";
    }

    /** Held by the replica that re-arms everything, so that others need not do it too. */
    String reconcileLock() {
        return prefix + "reconcile-lock";
    }

    String triggerPrefix(int shard) {
        return shardPrefix(shard) + "trigger:";
    }

    String claimPrefix(int shard) {
        return shardPrefix(shard) + "claim:";
    }

    /**
     * A key whose expiry tells whether the replica hears the master holding it; {@code n} picks its slot, see
     * {@link #slot(String)}.
     */
    String probe(int n) {
        return prefix + "{p" + n + "}:probe";
    }

    public boolean isProbe(String key) {
        return key.startsWith(prefix + "{p") && key.endsWith("}:probe");
    }

    /** The Redis Cluster slot of a key: CRC16 of its hash tag, or of the whole key without one. */
    static int slot(String key) {
        int open = key.indexOf('{');
        int close = open < 0 ? -1 : key.indexOf('}', open + 1);
        String hashed = close > open + 1 ? key.substring(open + 1, close) : key;
        return CRC16.crc16(hashed.getBytes(StandardCharsets.UTF_8)) % CLUSTER_SLOTS;
    }

    /**
     * Where the delivery warm-up rehearses the scripts: a slot and names of its own, apart from every reminder's keys
     * (no trigger key, so no replica acts on what happens here).
     */
    String warmUp() {
        return prefix + "{warm-up}:";
    }

    /** Pub/sub channel on which every replica hears the notifications delivered by any of them. */
    public String deliveredChannel() {
        return prefix + "delivered";
    }

    /**
     * Pub/sub channel on which a replica says that it has started listening on {@link #deliveredChannel()}, because it
     * has a stream client: a delivering replica that found no one listening publishes again from then on.
     */
    public String streamListenersChannel() {
        return prefix + "stream-listeners";
    }

    /** Pub/sub channel on which a replica that rotated a caller's signing secret tells the others to read it again. */
    public String signingSecretsChannel() {
        return prefix + "signing-secrets";
    }

    /** A caller's request rate (the time its next request is due, in µs): the caller's id hashed, never its text. */
    public String requestRate(String caller) {
        return prefix + "limits:rate:" + hashed(caller);
    }

    /** ZSET of a caller's open streams, each scored by when its lease runs out (epoch ms). */
    public String openStreams(String caller) {
        return prefix + "limits:streams:" + hashed(caller);
    }

    /** Cheap: whether the key is spelled as a trigger key of ours, before {@link #parseTrigger} reads it. */
    public boolean isTrigger(String key) {
        return shards == 1
                ? key.startsWith(triggerPrefix(0))
                : key.startsWith(prefix + SHARD_TAG) && key.indexOf(TRIGGER, prefix.length()) > 0;
    }

    private static String hashed(String caller) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(caller.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }

    /**
     * The reminder a trigger key names, or empty for a key that is not a well-formed trigger key, including one in a
     * shard other than the reminder's (left by a different shard count: its own shard's schedule does not hold it).
     */
    public Optional<ReminderRef> parseTrigger(String key) {
        if (!isTrigger(key)) {
            return Optional.empty();
        }
        if (shards == 1) {
            return ReminderRef.parse(key.substring(triggerPrefix(0).length()));
        }
        int end = key.indexOf(TRIGGER, prefix.length());
        String shard = key.substring(prefix.length() + SHARD_TAG.length(), end);
        return ReminderRef.parse(key.substring(end + TRIGGER.length()))
                .filter(ref -> Integer.toString(shardOf(ref)).equals(shard));
    }
}
