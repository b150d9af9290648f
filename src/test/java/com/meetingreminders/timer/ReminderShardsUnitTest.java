package com.meetingreminders.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Shards of the schedule: a stable shard per reminder, one hash slot per shard, and one shard named as before. */
class ReminderShardsUnitTest {

    private static final String PREFIX = "rm-unit:";
    private final ReminderKeys sharded = new ReminderKeys(PREFIX, ReminderKeys.CLUSTER_SHARDS);

    @Test
    void oneShardKeepsTheNamesOfASingleNode() {
        ReminderKeys single = new ReminderKeys(PREFIX, 1);
        ReminderRef ref = ref(UUID.randomUUID(), 1_700_000_000_000L);

        assertThat(single.shardOf(ref)).isZero();
        assertThat(new String[] {
                    single.schedule(0),
                    single.armedUntil(0),
                    single.reconciled(0),
                    single.triggerPrefix(0),
                    single.claimPrefix(0)
                })
                .containsExactly(
                        PREFIX + "schedule",
                        PREFIX + "armed-until",
                        PREFIX + "reconciled",
                        PREFIX + "trigger:",
                        PREFIX + "claim:");
    }

    @Test
    void putsAReminderInTheSameShardEveryTime() {
        ReminderRef ref = ref(UUID.fromString("0b7f6c2e-57a4-4d0e-9a59-3f2c1d1e5a10"), 1_700_000_000_000L);
        ReminderKeys again = new ReminderKeys("another-prefix:", ReminderKeys.CLUSTER_SHARDS);

        assertThat(sharded.shardOf(ref))
                .isEqualTo(sharded.shardOf(ref(ref.meetingId(), ref.sendAt().toEpochMilli())))
                .isEqualTo(again.shardOf(ref))
                .isBetween(0, ReminderKeys.CLUSTER_SHARDS - 1);
    }

    @Test
    void spreadsRemindersOverEveryShard() {
        int[] counts = new int[ReminderKeys.CLUSTER_SHARDS];
        UUID meeting = UUID.randomUUID();
        IntStream.range(0, 12_000).forEach(i -> counts[sharded.shardOf(ref(meeting, 1_700_000_000_000L + i))]++);

        assertThat(IntStream.of(counts).boxed())
                .allSatisfy(count -> assertThat(count).isBetween(800, 1_200));
    }

    @Test
    void givesAllKeysOfAShardOneSlot() {
        ReminderRef ref = ref(UUID.randomUUID(), 1_700_000_000_000L);
        for (int shard = 0; shard < sharded.shards(); shard++) {
            Set<Integer> slots = new TreeSet<>();
            for (String key : new String[] {
                sharded.schedule(shard),
                sharded.armedUntil(shard),
                sharded.reconciled(shard),
                sharded.triggerPrefix(shard) + ref.id(),
                sharded.claimPrefix(shard) + ref.id()
            }) {
                slots.add(ReminderKeys.slot(key));
            }
            assertThat(slots).hasSize(1);
        }
    }

    @Test
    void spreadsTheShardsOverEveryMasterOfAThreeMasterCluster() {
        // redis-cli --cluster create splits the 16,384 slots into three even ranges.
        Set<Integer> masters = new TreeSet<>();
        for (int shard = 0; shard < sharded.shards(); shard++) {
            masters.add(ReminderKeys.slot(sharded.schedule(shard)) * 3 / 16_384);
        }

        assertThat(masters).containsExactly(0, 1, 2);
    }

    @Test
    void computesTheSlotsRedisComputes() {
        // Values from CLUSTER KEYSLOT on Redis 7.
        assertThat(ReminderKeys.slot("foo")).isEqualTo(12182);
        assertThat(ReminderKeys.slot("{user1000}.following")).isEqualTo(ReminderKeys.slot("{user1000}.followers"));
    }

    @Test
    void readsBackATriggerKeyOfItsOwnShardOnly() {
        ReminderRef ref = ref(UUID.randomUUID(), 1_700_000_000_000L);
        int shard = sharded.shardOf(ref);
        int otherShard = (shard + 1) % sharded.shards();

        assertThat(sharded.parseTrigger(sharded.triggerPrefix(shard) + ref.id()))
                .contains(ref);
        assertThat(sharded.isTrigger(sharded.triggerPrefix(otherShard) + ref.id()))
                .isTrue();
        assertThat(sharded.parseTrigger(sharded.triggerPrefix(otherShard) + ref.id()))
                .isEmpty();
        assertThat(sharded.parseTrigger(sharded.claimPrefix(shard) + ref.id())).isEmpty();
        assertThat(sharded.parseTrigger(PREFIX + "trigger:" + ref.id())).isEmpty();
        assertThat(sharded.parseTrigger(PREFIX + "{sx}:trigger:" + ref.id())).isEmpty();
        assertThat(sharded.isTrigger(sharded.probe(0))).isFalse();
        assertThat(sharded.isProbe(sharded.probe(7))).isTrue();
    }

    @Test
    void refusesAPrefixWithAHashTagWhenSharded() {
        assertThatThrownBy(() -> new ReminderKeys("app{1}:", 12)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReminderKeys(PREFIX, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static ReminderRef ref(UUID meeting, long sendAtMillis) {
        return new ReminderRef(meeting, Instant.ofEpochMilli(sendAtMillis));
    }
}
