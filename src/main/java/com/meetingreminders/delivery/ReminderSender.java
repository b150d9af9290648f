package com.meetingreminders.delivery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.notify.Channel;
import com.meetingreminders.notify.DeliveryFailure;
import com.meetingreminders.notify.Notification;
import com.meetingreminders.notify.Outgoing;
import com.meetingreminders.reminder.ReminderMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.quarkus.arc.All;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Starts the sends of a round's reminders on every channel ({@link Channel}: webhook, e-mail, ...) that a reminder
 * has not reached yet. It never throws for one reminder: whatever one send does, a target the client rejects included,
 * is a failed send of that reminder, and no other reminder of the round hears of it.
 */
@ApplicationScoped
class ReminderSender {

    private final List<Channel> channels;
    private final ReminderMetrics metrics;
    private final ObjectMapper json;
    private final Clock clock;

    ReminderSender(@All List<Channel> channels, ReminderMetrics metrics, ObjectMapper json, Clock clock) {
        this.channels = channels;
        this.metrics = metrics;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Starts every send the reminders still need, channel by channel in their order. The sends of a reminder go beneath
     * its span in this round ({@code spans}), which ends when its last send has.
     */
    List<Attempt> send(List<DueReminder> reminders, Function<DueReminder, Span> spans) {
        List<Span> reminderSpans = new ArrayList<>();
        List<Optional<Outgoing>> outgoing = new ArrayList<>();
        for (DueReminder reminder : reminders) {
            Span span = spans.apply(reminder);
            reminderSpans.add(span);
            outgoing.add(outgoing(reminder, span));
        }
        List<Outgoing> round = outgoing.stream().flatMap(Optional::stream).toList();
        List<Function<Outgoing, List<Channel.Send>>> sendsOf;
        try {
            sendsOf = channels.stream().map(channel -> channel.sendsOf(round)).toList();
        } catch (RuntimeException e) {
            // A channel's preparation (the owners' secrets, read from the database) failed the round: its reminders'
            // spans end here, or they would never be exported.
            reminderSpans.forEach(span -> {
                span.recordException(e);
                span.end();
            });
            throw e;
        }
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < reminders.size(); i++) {
            DueReminder reminder = reminders.get(i);
            Span span = reminderSpans.get(i);
            attempts.add(outgoing.get(i)
                    .map(message -> attempt(reminder, span, message, start(message, sendsOf)))
                    .orElseGet(() -> attempt(reminder, span, unwritten(reminder, span), List.of(unwritable()))));
        }
        return attempts;
    }

    /** The round has committed: every channel hears what it delivered. */
    void delivered(List<Outgoing> delivered) {
        for (Channel channel : channels) {
            channel.delivered(delivered);
        }
    }

    /** The reminder as the channels take it; empty if its notification cannot be written. */
    private Optional<Outgoing> outgoing(DueReminder reminder, Span span) {
        Notification notification = reminder.notification();
        try {
            return Optional.of(outgoing(reminder, notification, toJson(notification), span));
        } catch (RuntimeException e) {
            Log.warnf(
                    e,
                    "Reminder %s could not be written as a notification",
                    reminder.ref().id());
            return Optional.empty();
        }
    }

    /** A reminder whose notification could not be written: it goes nowhere, and its attempt fails. */
    private static Outgoing unwritten(DueReminder reminder, Span span) {
        return outgoing(reminder, reminder.notification(), "", span);
    }

    private static Outgoing outgoing(DueReminder reminder, Notification notification, String json, Span span) {
        return new Outgoing(
                notification,
                json,
                reminder.owner(),
                reminder.webhookUrl(),
                reminder.sentTo(),
                Context.root().with(span));
    }

    private static Sending unwritable() {
        return new Sending(
                "none", "", CompletableFuture.failedFuture(new DeliveryFailure("the notification could not be made")));
    }

    private List<Sending> start(Outgoing message, List<Function<Outgoing, List<Channel.Send>>> sendsOf) {
        List<Sending> sendings = new ArrayList<>();
        for (int c = 0; c < channels.size(); c++) {
            for (Channel.Send send : sendsOf.get(c).apply(message)) {
                sendings.add(start(channels.get(c).name(), send));
            }
        }
        return sendings;
    }

    /** The attempt, with the moment its last send ended: its lateness, whatever else the round waits for. */
    private Attempt attempt(DueReminder reminder, Span span, Outgoing message, List<Sending> sends) {
        CompletableFuture<Instant> ended = CompletableFuture.allOf(
                        sends.stream().map(Sending::sent).toArray(CompletableFuture<?>[]::new))
                .handle((ignored, error) -> clock.instant());
        Attempt attempt = new Attempt(reminder, message, sends, ended, span.getSpanContext());
        ended.thenRun(() -> {
            List<String> errors = attempt.result().errors();
            if (!errors.isEmpty()) {
                span.setStatus(StatusCode.ERROR, String.join("; ", errors));
            }
            span.end();
        });
        return attempt;
    }

    /** Starts one send; one that throws before it is under way fails with {@code ifStartFails}, and counts as an attempt. */
    private Sending start(String channel, Channel.Send send) {
        long started = System.nanoTime();
        CompletableFuture<Void> sent;
        try {
            sent = send.start().get();
        } catch (RuntimeException e) {
            Log.warnf("Could not start a %s send (%s): %s", channel, send.ifStartFails(), e.toString());
            sent = CompletableFuture.failedFuture(new DeliveryFailure(send.ifStartFails()));
        }
        sent.whenComplete((ignored, error) ->
                metrics.attempt(channel, error == null, Duration.ofNanos(System.nanoTime() - started)));
        return new Sending(channel, send.recipient(), sent);
    }

    String toJson(Notification notification) {
        try {
            return json.writeValueAsString(notification);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A notification could not be written as JSON", e);
        }
    }

    /** One send under way on one channel to one recipient ({@code webhook}, {@code email:<address>}). */
    record Sending(String channel, String recipient, CompletableFuture<Void> sent) {

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
            DueReminder reminder,
            Outgoing message,
            List<Sending> sends,
            CompletableFuture<Instant> ended,
            SpanContext trace) {

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
            for (Sending send : sends) {
                send.failure().ifPresentOrElse(errors::add, () -> reached.add(send.recipient()));
            }
            return new Result(errors, reached);
        }

        /** The channels of this attempt, as the delivery log names them: webhook+email, or stream alone. */
        String channel() {
            String channels = sends.stream().map(Sending::channel).distinct().collect(Collectors.joining("+"));
            return channels.isEmpty() ? "stream" : channels;
        }
    }
}
