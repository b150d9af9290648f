package com.meetingreminders.notify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How a stream announcement travels between replicas as one line, and reaches its owner's clients. */
class AnnouncementUnitTest {

    private static final String JSON = "{\"deliveryId\":\"m:1\",\"title\":\"a b\"}";

    @ParameterizedTest
    @ValueSource(
            strings = {"alice", "https://idp.example.com|alice", "with space", "line\nbreak", "percent%20", "ünïcode"})
    void aDeliveredNotificationComesBackToTheOwnerItWasFor(String owner) {
        Announcement announcement = new Announcement(owner, JSON);

        assertThat(announcement.toLine()).doesNotContain("\n").doesNotContain("\r");
        assertThat(Announcement.ofLine(announcement.toLine())).isEqualTo(announcement);
    }

    @Test
    void aNamedEventKeepsItsName() {
        Announcement announcement = Announcement.named("reminder.failed", "bob smith", JSON);

        assertThat(Announcement.ofLine(announcement.toLine())).isEqualTo(announcement);
    }

    @Test
    void aDeliveredLineKeepsTheShapeItHadBeforeEventsHadNames() {
        assertThat(new Announcement("alice", JSON).toLine()).isEqualTo("alice " + JSON);
    }
}
