package com.meetingreminders.notify;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * What the owner hears of a reminder that ended FAILED, on the stream ({@code reminder.failed}) and at the meeting's
 * failureWebhookUrl: the notification's own fields, then how many attempts were made and why the last one failed.
 */
public record FailureNotice(@JsonUnwrapped Notification notification, int attempts, String lastError) {

    /** The event's name on the stream. */
    public static final String EVENT = "reminder.failed";

    /**
     * The notice's {@code webhook-id} and {@code Idempotency-Key}: the reminder's deliveryId with {@code :failed}, so
     * that a receiver deduplicating by id never takes the notice for the reminder itself.
     */
    public String webhookId() {
        return notification.deliveryId() + ":failed";
    }
}
