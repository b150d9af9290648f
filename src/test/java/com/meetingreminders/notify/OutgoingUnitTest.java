package com.meetingreminders.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.context.Context;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a channel asks of a reminder on its way: whom an earlier attempt reached. */
class OutgoingUnitTest {

    private static final Instant AT = Instant.parse("2026-11-23T09:00:00Z");

    @Test
    void knowsWhomEarlierAttemptsReachedRecipientByRecipient() {
        Outgoing outgoing = outgoing(List.of("webhook", "email:a@example.com"));

        assertThat(outgoing.hasReached("webhook")).isTrue();
        assertThat(outgoing.hasReached("email:a@example.com")).isTrue();
        assertThat(outgoing.hasReached("email:b@example.com")).isFalse();
    }

    @Test
    void aFirstAttemptHasReachedNobody() {
        assertThat(outgoing(List.of()).hasReached("webhook")).isFalse();
    }

    private static Outgoing outgoing(List<String> reached) {
        Notification notification = new Notification(
                "id",
                UUID.randomUUID(),
                "Standup",
                AT,
                AT,
                AT.minusSeconds(300),
                "PT5M",
                "UTC",
                List.of("a@example.com"));
        return new Outgoing(notification, "{}", "owner", null, reached, Context.root());
    }
}
