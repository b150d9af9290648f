package com.meetingreminders.timer;

import com.meetingreminders.config.RemindersConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The claim and settle scripts, run on keys of the delivery warm-up's own ({@link ReminderKeys#warmUp()}), so that the
 * first expirations after a start do not wait for the scripts' first calls: the members go on a schedule of their own,
 * due, are claimed and settled as finished, and whatever is left of it is deleted.
 */
@ApplicationScoped
public class TimerRehearsal {

    private final RedissonClient redis;
    private final RScript scripts;
    private final ReminderKeys keys;
    private final RemindersConfig config;

    TimerRehearsal(RedissonClient redis, ReminderKeys keys, RemindersConfig config) {
        this.redis = redis;
        this.scripts = LuaScript.runner(redis);
        this.keys = keys;
        this.config = config;
    }

    public void rehearse(Collection<ReminderRef> refs) {
        String schedule = keys.warmUp() + "schedule";
        String claimPrefix = keys.warmUp() + "claim:";
        try {
            redis.<String>getScoredSortedSet(schedule, StringCodec.INSTANCE)
                    .addAll(refs.stream().collect(Collectors.toMap(ReminderRef::id, ref -> 0.0)));
            ReminderTimers.CLAIM.list(
                    scripts,
                    List.of(schedule),
                    ScriptArguments.claim(claimPrefix, config.claim().lease(), ShardClocks.NO_DEADLINE, refs));
            ReminderTimers.SETTLE.number(
                    scripts,
                    List.of(schedule),
                    ScriptArguments.settle(
                            keys.warmUp() + "trigger:",
                            claimPrefix,
                            refs.stream().map(Settlement::finished).toList()));
        } finally {
            List<String> left = new ArrayList<>(List.of(schedule));
            refs.forEach(ref -> left.add(claimPrefix + ref.id()));
            redis.getKeys().delete(left.toArray(String[]::new));
        }
    }
}
