package com.meetingreminders.notify;

import io.opentelemetry.context.Context;
import java.util.List;

/**
 * A reminder on its way, as the channels see it: its notification and that notification's JSON, the meeting's owner
 * and own webhook URL (null for the default target), the recipients earlier attempts reached, and the trace its sends
 * join.
 */
public record Outgoing(
        Notification notification, String json, String owner, String webhookUrl, List<String> reached, Context trace) {

    /** Whether an earlier attempt already reached this recipient ({@code webhook}, {@code email:<address>}). */
    public boolean hasReached(String recipient) {
        return reached.contains(recipient);
    }
}
