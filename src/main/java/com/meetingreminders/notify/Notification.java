package com.meetingreminders.notify;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What a receiver gets for one reminder, on every channel. {@code deliveryId} is {@code {meetingId}:{sendAt ms}}; a
 * receiver that sees it twice has seen the same reminder twice.
 */
public record Notification(
        String deliveryId,
        UUID meetingId,
        String title,
        Instant startsAt,
        Instant sendAt,
        String remindBefore,
        String timeZone,
        List<String> attendees) {}
