package com.meetingreminders.timer;

import com.meetingreminders.config.RemindersConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Every Redis key and channel name the service uses, all under {@code reminders.redis.key-prefix}. A trigger key and a
 * claim key are their prefix followed by the reminder's {@link ReminderRef#id()}; the Lua scripts build them that way.
 */
@ApplicationScoped
public class ReminderKeys {

    private final String prefix;

    @Inject
    ReminderKeys(RemindersConfig config) {
        this(config.redis().keyPrefix());
    }

    ReminderKeys(String prefix) {
        this.prefix = prefix;
    }

    /** ZSET of every armed reminder, scored by when it is next due. */
    String schedule() {
        return prefix + "schedule";
    }

    /** How far ahead (epoch ms) sweeps have given trigger keys. */
    String armedUntil() {
        return prefix + "armed-until";
    }

    /** Present once every scheduled reminder of the database is armed; gone means Redis lost our keys. */
    String reconciled() {
        return prefix + "reconciled";
    }

    /** Held by the replica that re-arms everything, so that others need not do it too. */
    String reconcileLock() {
        return prefix + "reconcile-lock";
    }

    String triggerPrefix() {
        return prefix + "trigger:";
    }

    String claimPrefix() {
        return prefix + "claim:";
    }

    /** Pub/sub channel on which every replica hears the notifications delivered by any of them. */
    public String deliveredChannel() {
        return prefix + "delivered";
    }

    /** A caller's request rate (the time its next request is due, in µs): the caller's id hashed, never its text. */
    public String requestRate(String caller) {
        return prefix + "limits:rate:" + hashed(caller);
    }

    /** ZSET of a caller's open streams, each scored by when its lease runs out (epoch ms). */
    public String openStreams(String caller) {
        return prefix + "limits:streams:" + hashed(caller);
    }

    public boolean isTrigger(String key) {
        return key.startsWith(triggerPrefix());
    }

    private static String hashed(String caller) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(caller.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }

    /** The reminder a trigger key names, or empty for a key that is not a well-formed trigger key. */
    public Optional<ReminderRef> parseTrigger(String key) {
        return isTrigger(key) ? ReminderRef.parse(key.substring(triggerPrefix().length())) : Optional.empty();
    }
}
