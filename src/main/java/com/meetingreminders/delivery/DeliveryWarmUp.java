package com.meetingreminders.delivery;

import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.config.DeliveryConfig;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.jdbc.LocalTransaction;
import com.meetingreminders.notify.Notification;
import com.meetingreminders.notify.WebhookChannel;
import com.meetingreminders.reminder.ReminderStatus;
import com.meetingreminders.signing.WebhookSecret;
import com.meetingreminders.signing.WebhookSignature;
import com.meetingreminders.timer.ReminderRef;
import com.meetingreminders.timer.TimerRehearsal;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.logging.Log;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

/**
 * Runs the delivery code on synthetic reminders before the replica reports ready ({@code
 * reminders.delivery.warm-up-sends}), so that its first real reminders are not late by what a cold JVM pays the first
 * time: class loading, interpreted code, the webhook client's pool, JSON writing, signing, the round's SQL and the
 * claim script. It sends only to the replica's own {@link WarmUpSink}, with a secret of its own, and touches no
 * reminder's row or key and no metric: the round's statements read and write ids that do not exist and roll back,
 * the scripts run on keys of their own, and its spans are never sampled.
 */
@ApplicationScoped
public class DeliveryWarmUp {

    /** No meeting has the nil UUID, and no reminder a negative id. */
    private static final UUID NO_MEETING = new UUID(0, 0);

    private static final long NO_REMINDER = -1;

    /** A parent that is not sampled: the warm-up's spans are made, as a delivery's are, and never exported. */
    private static final Context UNSAMPLED = Context.root()
            .with(Span.wrap(SpanContext.create(
                    TraceId.fromLongs(0, 1), SpanId.fromLong(1), TraceFlags.getDefault(), TraceState.getDefault())));

    /** What readiness tells of the warm-up. */
    record Progress(boolean done, String state, int sent, int verified) {}

    private final Vertx vertx;
    private final WebhookChannel webhook;
    private final ReminderSender sender;
    private final DeliveryStore store;
    private final TimerRehearsal rehearsal;
    private final DeliveryTimeouts timeouts;
    private final BackgroundWork background;
    private final Clock clock;
    private final DeliveryConfig delivery;
    private volatile Progress progress;

    DeliveryWarmUp(
            Vertx vertx,
            WebhookChannel webhook,
            ReminderSender sender,
            DeliveryStore store,
            TimerRehearsal rehearsal,
            DeliveryTimeouts timeouts,
            BackgroundWork background,
            Clock clock,
            RemindersConfig config) {
        this.vertx = vertx;
        this.webhook = webhook;
        this.sender = sender;
        this.store = store;
        this.rehearsal = rehearsal;
        this.timeouts = timeouts;
        this.background = background;
        this.clock = clock;
        this.delivery = config.delivery();
        this.progress =
                delivery.warmUpSends() > 0 ? new Progress(false, "not started", 0, 0) : new Progress(true, "off", 0, 0);
    }

    Progress progress() {
        return progress;
    }

    /** Starts the warm-up on a thread of its own; the replica is unready until it has ended. */
    void start() {
        if (delivery.warmUpSends() > 0) {
            start(background.worker("delivery-warm-up"));
        }
    }

    /** Runs it on {@code executor}, its progress readiness's from now on; the future completes as it ends. */
    CompletableFuture<Progress> start(Executor executor) {
        progress = new Progress(false, "warming up", 0, 0);
        return CompletableFuture.supplyAsync(this::run, executor);
    }

    private Progress run() {
        long started = System.nanoTime();
        long deadline = started + delivery.warmUpTime().toNanos();
        int wanted = delivery.warmUpSends();
        WebhookSecret secret = WebhookSecret.generate();
        WebhookSignature signature = WebhookSignature.by(secret);
        int sent = 0;
        String state;
        try (Scope ignored = UNSAMPLED.makeCurrent();
                WarmUpSink sink = WarmUpSink.open(vertx, secret)) {
            while (sent < wanted && System.nanoTime() < deadline) {
                int size = Math.min(delivery.batchSize(), wanted - sent);
                round(sent, size, sink.uri(), signature, deadline);
                sent += size;
                progress = new Progress(false, "warming up", sent, sink.verified());
            }
            state = sent < wanted ? "stopped at reminders.delivery.warm-up-time" : "done";
            progress = new Progress(true, state, sent, sink.verified());
        } catch (RuntimeException | InterruptedException e) {
            // A warm-up that cannot run leaves the replica cold, never unready.
            Log.warnf("The delivery warm-up stopped after %d sends: %s", sent, e.toString());
            progress = new Progress(true, "failed", sent, progress.verified());
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
        Progress ended = progress;
        Log.infof(
                "Delivery warm-up %s: %d of %d sends verified by the replica's own receiver in %d ms",
                ended.state(), ended.verified(), wanted, (System.nanoTime() - started) / 1_000_000);
        return ended;
    }

    /** One round's worth, as a round does it: read, send, record; then rolled back, and the scripts rehearsed. */
    private void round(int first, int size, URI target, WebhookSignature signature, long deadline)
            throws InterruptedException {
        List<DueReminder> reminders = IntStream.range(first, first + size)
                .mapToObj(i -> synthetic(i, target))
                .toList();
        List<ReminderRef> refs = reminders.stream().map(DueReminder::ref).toList();
        try (LocalTransaction transaction = store.open(timeouts.transaction()).transaction()) {
            store.lock(transaction, refs);
            CompletableFuture<?>[] sends = reminders.stream()
                    .map(DueReminder::notification)
                    .map(notification -> webhook.send(
                            target, notification.deliveryId(), sender.toJson(notification), signature, UNSAMPLED))
                    .toArray(CompletableFuture<?>[]::new);
            try {
                // The sink's count says what arrived; a failed send only means fewer.
                CompletableFuture.allOf(sends)
                        .handle((done, failed) -> null)
                        .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // Out of time: the loop ends at the deadline.
            }
            Instant now = clock.instant();
            store.delivered(transaction, List.of(NO_REMINDER), now);
            store.failed(
                    transaction,
                    List.of(reminders.get(0).afterFailure("warm-up", List.of(), 1, now, attempts -> Duration.ZERO)));
        }
        rehearsal.rehearse(refs);
    }

    private static DueReminder synthetic(int i, URI target) {
        Instant sendAt = Instant.EPOCH.plusMillis(i);
        return new DueReminder(
                NO_REMINDER,
                new ReminderRef(NO_MEETING, sendAt),
                "PT10M",
                ReminderStatus.SCHEDULED,
                0,
                null,
                List.of(),
                "Delivery warm-up",
                Notification.occurrenceStart(sendAt, "PT10M", sendAt),
                "UTC",
                List.of("warm-up@example.invalid"),
                target.toString(),
                "warm-up",
                null,
                sendAt);
    }
}
