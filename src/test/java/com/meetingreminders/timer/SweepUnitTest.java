package com.meetingreminders.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
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
}
