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

        // Plus the time since the reading, which a loaded machine may make long.
        assertThat(clocks.deadline(0, TIMEOUT)).isGreaterThanOrEqualTo(REDIS_NOW + 1_500);
        assertThat(clocks.deadline(1, TIMEOUT)).as("another shard").isEqualTo(ShardClocks.NO_DEADLINE);
    }

    @Test
    void sweepsAnsweredPastTheirDeadlineTwiceInARowLiftDeadlinesUntilOneRunsWithinIt() {
        clocks.read(0, REDIS_NOW, ShardClocks.NO_DEADLINE);

        // Slow, not hung: the replies came back, after Redis ran the sweeps past the deadlines they were sent with.
        clocks.read(0, REDIS_NOW + 1_800, REDIS_NOW + 1_500);
        assertThat(clocks.deadline(0, TIMEOUT)).as("after one late sweep").isNotEqualTo(ShardClocks.NO_DEADLINE);
        clocks.read(0, REDIS_NOW + 3_700, REDIS_NOW + 3_400);
        assertThat(clocks.deadline(0, TIMEOUT)).as("after two").isEqualTo(ShardClocks.NO_DEADLINE);

        clocks.read(0, REDIS_NOW + 4_000, REDIS_NOW + 5_300);
        assertThat(clocks.deadline(0, TIMEOUT)).isGreaterThanOrEqualTo(REDIS_NOW + 5_500);
    }
}
