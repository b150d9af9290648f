package com.meetingreminders.timer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which notify-keyspace-events flags give the event path its expired events, and what the service sets. */
class KeyspaceNotificationsUnitTest {

    @ParameterizedTest(name = "''{0}'' delivers expired events: {1}")
    @CsvSource({
        "'', false",
        "E, false",
        "x, false",
        "Ex, true",
        "xE, true",
        "EA, true",
        "KEA, true",
        "KA, false",
        "Kx, false",
        "Kgx, false",
        "AKE, true"
    })
    void needsKeyeventChannelsAndExpiredEvents(String flags, boolean delivers) {
        assertThat(KeyspaceNotifications.deliversExpiredEvents(flags)).isEqualTo(delivers);
    }

    @ParameterizedTest(name = "''{0}'' becomes ''{1}''")
    @CsvSource({"'', Ex", "E, Ex", "x, xE", "K, KEx", "Kg, KgEx", "KA, KAE", "Ex, Ex", "KEA, KEA", "gl, glEx"})
    void addsOnlyTheMissingFlagsAndKeepsTheOthers(String flags, String wanted) {
        String result = KeyspaceNotifications.withExpiredEvents(flags);

        assertThat(result).isEqualTo(wanted);
        assertThat(KeyspaceNotifications.deliversExpiredEvents(result)).isTrue();
    }
}
