package com.meetingreminders.notify;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What a receiver gets for one reminder, on every channel. {@code deliveryId} is {@code {meetingId}:{sendAt ms}}; a
 * receiver that sees it twice has seen the same reminder twice. {@code occurrence} is the original start of the
 * occurrence reminded of (its RECURRENCE-ID); {@code startsAt} is where it takes place, which a move makes differ.
 */
public record Notification(
        String deliveryId,
        UUID meetingId,
        String title,
        Instant startsAt,
        Instant occurrence,
        Instant sendAt,
        String remindBefore,
        String timeZone,
        List<String> attendees) {

    /**
     * Where the reminded occurrence starts: its send time plus its remindBefore, which for a series is the occurrence's
     * start (moved or not), not the series' first. A row without remindBefore (none is written so) falls back to the
     * meeting's start.
     */
    public static Instant occurrenceStart(Instant sendAt, String remindBefore, Instant meetingStart) {
        return remindBefore == null ? meetingStart : sendAt.plus(Duration.parse(remindBefore));
    }
}
