package com.meetingreminders.reminder;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.timer.ReminderRef;
import com.meetingreminders.timer.ScheduleEntry;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A transaction's changes to the timers, merged into one batch after its commit. */
class ScheduleChangeUnitTest {

    private static ReminderRef ref(int second) {
        return new ReminderRef(UUID.randomUUID(), Instant.ofEpochSecond(second));
    }

    @Test
    void mergingKeepsEveryArmingAndDisarmingInOrderAndAddsUpTheSkipped() {
        ReminderRef a = ref(1), b = ref(2), c = ref(3);

        ScheduleChange merged = ScheduleChange.merge(
                List.of(new ScheduleChange(List.of(a), List.of(), 1), new ScheduleChange(List.of(b), List.of(c), 2)));

        assertThat(merged.armed()).containsExactly(a, b);
        assertThat(merged.disarmed()).containsExactly(c);
        assertThat(merged.skipped()).isEqualTo(3);
    }

    @Test
    void aChangeThatOnlySkippedIsStillWorthCounting() {
        assertThat(new ScheduleChange(List.of(), List.of()).isEmpty()).isTrue();
        assertThat(ScheduleChange.merge(List.of()).isEmpty()).isTrue();
        assertThat(new ScheduleChange(List.of(), List.of(), 1).isEmpty()).isFalse();
    }

    @Test
    void anEntryAtItsSendTimeIsDueThen() {
        ReminderRef r = ref(42);

        assertThat(ScheduleEntry.atSendTime(r).dueAt()).isEqualTo(Instant.ofEpochSecond(42));
    }
}
