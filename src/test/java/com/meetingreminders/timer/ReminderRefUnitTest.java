package com.meetingreminders.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reminder ids, {@code {meetingId}:{sendAt in epoch ms}}: what is one, and what is refused. */
class ReminderRefUnitTest {

    private static final UUID MEETING = UUID.fromString("3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b");

    @Test
    void readsAsTheMeetingAndTheSendTimeInEpochMilliseconds() {
        ReminderRef ref = new ReminderRef(MEETING, Instant.parse("2026-11-23T09:00:00.123Z"));

        assertThat(ref.id()).isEqualTo(MEETING + ":1795424400123");
    }

    @Test
    void dropsWhatIsFinerThanAMillisecondSoThatTwoSpellingsOfOneReminderAreEqual() {
        ReminderRef fine = new ReminderRef(MEETING, Instant.parse("2026-11-23T09:00:00.123456789Z"));
        ReminderRef coarse = new ReminderRef(MEETING, Instant.parse("2026-11-23T09:00:00.123Z"));

        assertThat(fine).isEqualTo(coarse);
        assertThat(fine.id()).isEqualTo(coarse.id());
    }

    @Test
    void parsesBackWhatItWrote() {
        ReminderRef ref = new ReminderRef(MEETING, Instant.parse("2026-11-23T09:00:00.5Z"));

        assertThat(ReminderRef.parse(ref.id())).contains(ref);
    }

    @Test
    void parsesSendTimesBeforeTheEpoch() {
        ReminderRef ref = new ReminderRef(MEETING, Instant.parse("1969-12-31T23:59:59Z"));

        assertThat(ReminderRef.parse(ref.id())).contains(ref);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                ":",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b:",
                ":1795424400123",
                "not-a-uuid:1795424400123",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b:soon",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b:1.5",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b:99999999999999999999",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b:1795424400123 ",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b:1795424400123\n",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b::1795424400123"
            })
    void refusesWhatIsNotAReminderId(String id) {
        assertThat(ReminderRef.parse(id)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                // UUID.fromString takes these, but the service never writes them: one reminder has one id.
                "1-1-1-1-1:1795424400123",
                "3F2B6C1E-8A4D-4E1F-9B7A-0C5D2E8F1A6B:1795424400123",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b:+1795424400123",
                "3f2b6c1e-8a4d-4e1f-9b7a-0c5d2e8f1a6b:01795424400123"
            })
    void refusesOtherSpellingsOfAReminderId(String id) {
        assertThat(ReminderRef.parse(id)).isEmpty();
    }
}
