package com.meetingreminders.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ShardClocksUnitTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final long REDIS_NOW = 1_800_000_000_000L;

    private final ShardClocks clocks = new ShardClocks(2);

    @Test
    void aShardNotYetReadHasNoDeadline() {
        assertThat(clocks.deadline(0, TIMEOUT)).isEqualTo(ShardClocks.NO_DEADLINE);
    }

    @Test
    void aCallsDeadlineIsThreeQuartersOfTheTimeoutAfterTheShardsClock() {
        clocks.read(0, REDIS_NOW, ShardClocks.NO_DEADLINE);

        assertThat(clocks.deadline(0, TIMEOUT)).isBetween(REDIS_NOW + 1_500, REDIS_NOW + 1_500 + 1_000);
        assertThat(clocks.deadline(1, TIMEOUT)).as("another shard").isEqualTo(ShardClocks.NO_DEADLINE);
    }

    @Test
    void aSweepAnsweredPastItsDeadlineLiftsDeadlinesUntilOneRunsWithinIt() {
        clocks.read(0, REDIS_NOW, ShardClocks.NO_DEADLINE);

        // Slow, not hung: the reply came back, after Redis ran the sweep past the deadline it was sent with.
        clocks.read(0, REDIS_NOW + 1_800, REDIS_NOW + 1_500);
        assertThat(clocks.deadline(0, TIMEOUT)).isEqualTo(ShardClocks.NO_DEADLINE);
        assertThat(clocks.wouldBeDeadline(0, TIMEOUT)).isGreaterThan(REDIS_NOW + 1_800);

        clocks.read(0, REDIS_NOW + 2_000, REDIS_NOW + 3_300);
        assertThat(clocks.deadline(0, TIMEOUT)).isGreaterThanOrEqualTo(REDIS_NOW + 3_500);
    }
}
