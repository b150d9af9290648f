package com.meetingreminders.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** When an entry armed from the database is due: at its send time, unless a failed attempt set a later retry. */
class ScheduleEntryUnitTest {

    private static final ReminderRef REF = new ReminderRef(
            UUID.fromString("0b0e4c1e-8e4b-4f51-9a53-3f1d0c3e2a10"), Instant.parse("2030-01-01T10:00:00Z"));

    @Test
    void withoutAFailedAttemptItIsDueAtItsSendTime() {
        assertThat(ScheduleEntry.nextDue(REF, null)).isEqualTo(new ScheduleEntry(REF, REF.sendAt()));
    }

    @Test
    void afterAFailedAttemptItIsDueAtItsRetry() {
        Instant retry = REF.sendAt().plusSeconds(8);

        assertThat(ScheduleEntry.nextDue(REF, retry)).isEqualTo(new ScheduleEntry(REF, retry));
    }

    @Test
    void aRetryTimeBeforeItsSendTimeNeverMakesItDueEarly() {
        assertThat(ScheduleEntry.nextDue(REF, REF.sendAt().minusSeconds(60)))
                .isEqualTo(new ScheduleEntry(REF, REF.sendAt()));
    }
}
