package com.meetingreminders.notify;

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
        List<String> attendees) {}
