package com.meetingreminders.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** When the next sweep may take the earliest entry left: its due time plus the grace, on Redis's clock. */
class SweepUnitTest {

    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final long REDIS_NOW = 1_795_424_400_000L;

    private static Sweep leaving(OptionalLong nextDue) {
        return new Sweep(REDIS_NOW, true, nextDue, 0, List.of());
    }

    @Test
    void anEmptyScheduleGivesNoTime() {
        assertThat(leaving(OptionalLong.empty()).untilNextTakeable(GRACE)).isEmpty();
    }

    @Test
    void anEntryDueLaterIsTakeableItsDueTimePlusTheGraceFromNow() {
        assertThat(leaving(OptionalLong.of(REDIS_NOW + 10_000)).untilNextTakeable(GRACE))
                .contains(Duration.ofSeconds(12));
    }

    @Test
    void anEntryDueNowWaitsOnlyForTheGrace() {
        assertThat(leaving(OptionalLong.of(REDIS_NOW)).untilNextTakeable(GRACE)).contains(GRACE);
    }

    @Test
    void anEntryPastItsGraceIsTakeableAtOnceNeverInNegativeTime() {
        assertThat(leaving(OptionalLong.of(REDIS_NOW - 60_000)).untilNextTakeable(GRACE))
                .contains(Duration.ZERO);
        assertThat(leaving(OptionalLong.of(REDIS_NOW - 2_000)).untilNextTakeable(GRACE))
                .contains(Duration.ZERO);
    }

    @Test
    void withoutGraceAnEntryDueInAMillisecondWaitsAMillisecond() {
        assertThat(leaving(OptionalLong.of(REDIS_NOW + 1)).untilNextTakeable(Duration.ZERO))
                .contains(Duration.ofMillis(1));
    }

    @Test
    void sweepsOfTwoShardsAddUpToOneSweep() {
        ReminderRef first = new ReminderRef(UUID.randomUUID(), Instant.ofEpochMilli(REDIS_NOW - 10));
        ReminderRef second = new ReminderRef(UUID.randomUUID(), Instant.ofEpochMilli(REDIS_NOW - 5));
        Sweep one = new Sweep(REDIS_NOW, true, OptionalLong.of(REDIS_NOW + 500), 3, List.of(first));
        Sweep other = new Sweep(REDIS_NOW + 2, false, OptionalLong.of(REDIS_NOW + 200), 4, List.of(second));

        Sweep both = one.and(other);

        assertThat(both.redisNowMillis()).isEqualTo(REDIS_NOW + 2);
        assertThat(both.reconciled()).isFalse();
        assertThat(both.nextDueMillis()).hasValue(REDIS_NOW + 200);
        assertThat(both.dueLeft()).isEqualTo(7);
        assertThat(both.taken()).containsExactly(first, second);
        assertThat(leaving(OptionalLong.empty()).and(one).nextDueMillis()).hasValue(REDIS_NOW + 500);
        assertThat(one.and(leaving(OptionalLong.empty())).nextDueMillis()).hasValue(REDIS_NOW + 500);
    }
}
