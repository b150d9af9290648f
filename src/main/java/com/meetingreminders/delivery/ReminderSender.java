package com.meetingreminders.delivery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.notify.DeliveryFailure;
import com.meetingreminders.notify.EmailChannel;
import com.meetingreminders.notify.Notification;
import com.meetingreminders.notify.WebhookAllowList;
import com.meetingreminders.notify.WebhookChannel;
import com.meetingreminders.reminder.ReminderMetrics;
import com.meetingreminders.signing.DeploymentSecret;
import com.meetingreminders.signing.WebhookSignature;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Starts the sends of one reminder on each channel it has not reached yet: the webhook, and an e-mail to each attendee
 * when e-mail is on. It never throws: whatever one send does, a target the client rejects included, is a failed send
 * of that reminder, and no other reminder of the round hears of it.
 */
@ApplicationScoped
class ReminderSender {

    /** What {@code sent_to} records for the webhook, and before each attendee's address for an e-mail. */
    static final String WEBHOOK = "webhook";

    static final String EMAIL = "email:";

    private final WebhookChannel webhook;
    private final WebhookAllowList allowList;
    private final EmailChannel email;
    private final ReminderMetrics metrics;
    private final ObjectMapper json;
    private final Clock clock;
    private final Optional<URI> defaultTarget;
    private final WebhookSignature defaultTargetSignature;

    ReminderSender(
            WebhookChannel webhook,
            WebhookAllowList allowList,
            DeploymentSecret deploymentSecret,
            EmailChannel email,
            ReminderMetrics metrics,
            ObjectMapper json,
            Clock clock,
            RemindersConfig config) {
        this.webhook = webhook;
        this.allowList = allowList;
        this.email = email;
        this.metrics = metrics;
        this.json = json;
        this.clock = clock;
        this.defaultTarget = config.webhook().url();
        this.defaultTargetSignature = deploymentSecret.signature();
    }

    /**
     * Starts every send the reminder still needs; the stream gets it once every channel has. The deployment's secret
     * signs only what goes to the default target; a meeting's own webhookUrl gets its owner's signature, from
     * {@code ownerSignatures}. The webhook's request goes beneath {@code span}, the reminder's span in this round, which
     * ends when the last send has.
     */
    Attempt send(DueReminder reminder, Map<String, WebhookSignature> ownerSignatures, Span span) {
        Notification notification = reminder.notification();
        String body;
        try {
            body = toJson(notification);
        } catch (RuntimeException e) {
            Log.warnf(
                    e,
                    "Reminder %s could not be written as a notification",
                    reminder.ref().id());
            return attempt(
                    reminder,
                    span,
                    "",
                    List.of(new Send(
                            "none",
                            "",
                            CompletableFuture.failedFuture(
                                    new DeliveryFailure("the notification could not be made")))));
        }
        List<Send> sends = new ArrayList<>();
        if (!reminder.hasReached(WEBHOOK) && (reminder.webhookUrl() != null || defaultTarget.isPresent())) {
            sends.add(start(
                    "webhook",
                    WEBHOOK,
                    () -> sendWebhook(
                            reminder, body, ownerSignatures, Context.root().with(span)),
                    "the webhook URL cannot be used"));
        }
        if (email.isEnabled()) {
            List<String> unreached = reminder.attendees().stream()
                    .filter(attendee -> !reminder.hasReached(EMAIL + attendee))
                    .toList();
            if (!unreached.isEmpty()) {
                Optional<EmailChannel.Message> message = compose(notification);
                for (String attendee : unreached) {
                    sends.add(start(
                            "email",
                            EMAIL + attendee,
                            () -> email.send(attendee, message.orElseThrow()),
                            "e-mail to " + attendee + ": the message could not be made"));
                }
            }
        }
        return attempt(reminder, span, body, sends);
    }

    /** The attempt, with the moment its last send ended: its lateness, whatever else the round waits for. */
    private Attempt attempt(DueReminder reminder, Span span, String body, List<Send> sends) {
        CompletableFuture<Instant> ended = CompletableFuture.allOf(
                        sends.stream().map(Send::sent).toArray(CompletableFuture<?>[]::new))
                .handle((ignored, error) -> clock.instant());
        Attempt attempt = new Attempt(reminder, body, sends, ended, span.getSpanContext());
        ended.thenRun(() -> {
            List<String> errors = attempt.result().errors();
            if (!errors.isEmpty()) {
                span.setStatus(StatusCode.ERROR, String.join("; ", errors));
            }
            span.end();
        });
        return attempt;
    }

    private CompletableFuture<Void> sendWebhook(
            DueReminder reminder, String body, Map<String, WebhookSignature> ownerSignatures, Context trace) {
        if (reminder.webhookUrl() == null) {
            return webhook.send(defaultTarget.orElseThrow(), reminder.ref().id(), body, defaultTargetSignature, trace);
        }
        URI target = URI.create(reminder.webhookUrl());
        // Checked again at send time: the operator may have taken the host off the list since the meeting was made.
        return allowList.allows(target)
                ? webhook.send(target, reminder.ref().id(), body, ownerSignatures.get(reminder.owner()), trace)
                : CompletableFuture.failedFuture(
                        new DeliveryFailure("the webhook's host is not on reminders.webhook.allowed-hosts"));
    }

    /** Starts one send; one that throws before it is under way fails with {@code ifThrows}, and counts as an attempt. */
    private Send start(String channel, String recipient, Supplier<CompletableFuture<Void>> send, String ifThrows) {
        long started = System.nanoTime();
        CompletableFuture<Void> sent;
        try {
            sent = send.get();
        } catch (RuntimeException e) {
            Log.warnf("Could not start a %s send (%s): %s", channel, ifThrows, e.toString());
            sent = CompletableFuture.failedFuture(new DeliveryFailure(ifThrows));
        }
        sent.whenComplete((ignored, error) ->
                metrics.attempt(channel, error == null, Duration.ofNanos(System.nanoTime() - started)));
        return new Send(channel, recipient, sent);
    }

    /** The message every attendee gets, composed once; empty if it cannot be, and then each e-mail send fails. */
    private Optional<EmailChannel.Message> compose(Notification notification) {
        try {
            return Optional.of(email.compose(notification));
        } catch (RuntimeException e) {
            Log.warnf(e, "The e-mail of reminder %s could not be composed", notification.deliveryId());
            return Optional.empty();
        }
    }

    String toJson(Notification notification) {
        try {
            return json.writeValueAsString(notification);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A notification could not be written as JSON", e);
        }
    }

    /** One send on one channel to one recipient ({@code webhook}, {@code email:<address>}). */
    record Send(String channel, String recipient, CompletableFuture<Void> sent) {

        /** Empty, or why it failed; a send still out when the round stops waiting counts as failed. */
        Optional<String> failure() {
            if (!sent.isDone()) {
                return Optional.of("no answer within the delivery round's time");
            }
            try {
                sent.join();
                return Optional.empty();
            } catch (CompletionException e) {
                return Optional.of(
                        e.getCause() instanceof DeliveryFailure failure ? failure.getMessage() : "delivery failed");
            }
        }
    }

    /** The sends of one reminder in one round, and the span of its delivery (for the log's trace and span ids). */
    record Attempt(
            DueReminder reminder, String json, List<Send> sends, CompletableFuture<Instant> ended, SpanContext trace) {

        /** Why the sends that failed failed, and whom the others reached. */
        record Result(List<String> errors, List<String> reached) {}

        /** When its last send ended, or now if some are still out. */
        Instant endedAt(Clock clock) {
            return ended.getNow(clock.instant());
        }

        /** Reads every send's outcome, each once. */
        Result result() {
            List<String> errors = new ArrayList<>();
            List<String> reached = new ArrayList<>();
            for (Send send : sends) {
                send.failure().ifPresentOrElse(errors::add, () -> reached.add(send.recipient()));
            }
            return new Result(errors, reached);
        }

        /** The channels of this attempt, as the delivery log names them: webhook+email, or stream alone. */
        String channel() {
            String channels = sends.stream().map(Send::channel).distinct().collect(Collectors.joining("+"));
            return channels.isEmpty() ? "stream" : channels;
        }
    }
}
