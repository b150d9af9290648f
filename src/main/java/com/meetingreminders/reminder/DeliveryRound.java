package com.meetingreminders.reminder;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.notify.DeliveryFailure;
import com.meetingreminders.notify.DeploymentSecret;
import com.meetingreminders.notify.EmailChannel;
import com.meetingreminders.notify.FailureNotices;
import com.meetingreminders.notify.Notification;
import com.meetingreminders.notify.StreamChannel;
import com.meetingreminders.notify.WebhookAllowList;
import com.meetingreminders.notify.WebhookChannel;
import com.meetingreminders.notify.WebhookSignature;
import com.meetingreminders.signing.OwnerSignatures;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.MDC;

/**
 * One delivery round: in one transaction it locks the reminders of a batch, sends each that is still SCHEDULED on
 * every channel, and records every outcome; after the commit it tells Redis and announces the deliveries. The row
 * locks make a reschedule or delete of a meeting wait for a send already under way, so nothing of an old schedule
 * goes out after the change commits. Rounds lock only their own reminders, which the lease keeps apart, so a round
 * stuck on a slow receiver holds up no other round.
 */
@ApplicationScoped
public class DeliveryRound {

    /** What {@code sent_to} records for the webhook, and before each attendee's address for an e-mail. */
    private static final String WEBHOOK = "webhook";

    private static final String EMAIL = "email:";

    private static final List<String> DELIVERY_LOG_FIELDS =
            List.of("deliveryId", "channel", "attempt", "latenessMs", "path");

    private final ReminderTimers timers;
    private final DeliveryStore store;
    private final WebhookChannel webhook;
    private final WebhookAllowList allowList;
    private final OwnerSignatures ownerSignatures;
    private final WebhookSignature defaultTargetSignature;
    private final EmailChannel email;
    private final StreamChannel stream;
    private final FailureNotices failureNotices;
    private final ReminderMetrics metrics;
    private final ObjectMapper json;
    private final Clock clock;
    private final RemindersConfig.Delivery delivery;
    private final Optional<URI> defaultTarget;
    private final int transactionTimeoutSeconds;
    private final FailureLog failures =
            new FailureLog(DeliveryRound.class, "Delivery rounds (their reminders come due again after the backoff)");

    DeliveryRound(
            ReminderTimers timers,
            DeliveryStore store,
            WebhookChannel webhook,
            WebhookAllowList allowList,
            OwnerSignatures ownerSignatures,
            DeploymentSecret deploymentSecret,
            EmailChannel email,
            StreamChannel stream,
            FailureNotices failureNotices,
            ReminderMetrics metrics,
            ObjectMapper json,
            Clock clock,
            RemindersConfig config) {
        this.timers = timers;
        this.store = store;
        this.webhook = webhook;
        this.allowList = allowList;
        this.ownerSignatures = ownerSignatures;
        this.defaultTargetSignature = deploymentSecret.signature();
        this.email = email;
        this.stream = stream;
        this.failureNotices = failureNotices;
        this.metrics = metrics;
        this.json = json;
        this.clock = clock;
        this.delivery = config.delivery();
        this.defaultTarget = config.webhook().url();
        this.transactionTimeoutSeconds =
                (int) config.webhook().timeout().plusSeconds(30).toSeconds();
    }

    void deliver(List<ReminderRef> held, DeliveryPath path) {
        long started = System.nanoTime();
        Outcome outcome;
        try {
            outcome = QuarkusTransaction.requiringNew()
                    .timeout(transactionTimeoutSeconds)
                    .call(() -> sendAndRecord(held));
        } catch (RuntimeException e) {
            // Nothing was recorded: the reminders stay SCHEDULED and come due again after a pause.
            failures.failed(e);
            settle(held.stream()
                    .map(ref -> Settlement.dueAgainIn(ref, delivery.backoff()))
                    .toList());
            return;
        }
        failures.succeeded();
        settle(outcome.settlements());
        Log.debugf("Delivery round of %d reminders took %d ms", held.size(), (System.nanoTime() - started) / 1_000_000);
        stream.publish(outcome.delivered().stream()
                .map(d -> new StreamChannel.Announcement(d.reminder().owner(), d.json()))
                .toList());
        metrics.skipped(outcome.skipped());
        metrics.failed(outcome.failed().size());
        failureNotices.reminderFailed(outcome.failed());
        for (Delivered delivered : outcome.delivered()) {
            metrics.delivered(path, delivered.lateness());
            logDelivery(delivered, path);
        }
    }

    /**
     * One line per delivery. Its figures are also MDC entries, so that JSON logs carry them as fields of their own
     * ({@code mdc.deliveryId}, {@code mdc.latenessMs}, ...) for log queries.
     */
    private static void logDelivery(Delivered delivered, DeliveryPath path) {
        String deliveryId = delivered.reminder().ref().id();
        String pathName = path.name().toLowerCase(Locale.ROOT);
        long latenessMs = delivered.lateness().toMillis();
        MDC.put("deliveryId", deliveryId);
        MDC.put("channel", delivered.channel());
        MDC.put("attempt", Integer.toString(delivered.attempt()));
        MDC.put("latenessMs", Long.toString(latenessMs));
        MDC.put("path", pathName);
        try {
            Log.infof(
                    "Delivered reminder %s (channel=%s, attempt=%d, lateness=%dms, path=%s)",
                    deliveryId, delivered.channel(), delivered.attempt(), latenessMs, pathName);
        } finally {
            for (String key : DELIVERY_LOG_FIELDS) {
                MDC.remove(key);
            }
        }
    }

    /**
     * Runs the round's query and writes a notification once, so that the first reminder after a start is not late by
     * the time a cold JVM takes to prepare them.
     */
    void warmUp() {
        ReminderRef nothing = new ReminderRef(new UUID(0, 0), Instant.EPOCH);
        QuarkusTransaction.requiringNew().run(() -> store.lock(List.of(nothing)));
        toJson(new Notification(
                nothing.id(), nothing.meetingId(), "", Instant.EPOCH, Instant.EPOCH, "PT0S", "UTC", List.of()));
    }

    private Outcome sendAndRecord(List<ReminderRef> held) {
        Map<ReminderRef, DueReminder> rows =
                store.lock(held).stream().collect(Collectors.toMap(DueReminder::ref, Function.identity()));
        Instant now = clock.instant();
        List<Settlement> settlements = new ArrayList<>();
        List<Long> skipped = new ArrayList<>();
        List<DueReminder> toSend = new ArrayList<>();
        for (ReminderRef ref : held) {
            DueReminder reminder = rows.get(ref);
            if (reminder == null) {
                // The meeting was deleted, or the entry was never ours. It goes, so it cannot come back.
                Log.infof("Dropping schedule entry %s: no such reminder", ref.id());
                settlements.add(Settlement.finished(ref));
            } else if (!reminder.isScheduled()) {
                // Cancelled or already delivered: a stale timer. Its entry goes, so it cannot fire again.
                settlements.add(Settlement.finished(ref));
            } else if (reminder.isTooLate(now, delivery.lateCutoff())) {
                skipped.add(reminder.id());
                settlements.add(Settlement.finished(ref));
                Log.infof(
                        "Skipped reminder %s: its meeting has started and it is %s late",
                        ref.id(), Duration.between(ref.sendAt(), now));
            } else if (reminder.isWaitingForRetry(now)) {
                // Taken before its next attempt (a lease that ran out during a slow attempt, a re-arm): not yet.
                settlements.add(Settlement.dueAgainIn(ref, Duration.between(now, reminder.nextAttemptAt())));
            } else {
                toSend.add(reminder);
            }
        }
        Map<String, WebhookSignature> signatures = ownerSignatures.of(toSend.stream()
                .filter(reminder -> reminder.webhookUrl() != null && !reminder.hasReached(WEBHOOK))
                .map(DueReminder::owner)
                .toList());
        List<Attempt> attempts = new ArrayList<>();
        for (DueReminder reminder : toSend) {
            attempts.add(send(reminder, signatures));
        }
        List<Delivered> delivered = new ArrayList<>();
        List<DueReminder.Failure> failures = new ArrayList<>();
        for (Attempt attempt : attempts) {
            DueReminder reminder = attempt.reminder();
            Attempt.Result result = attempt.result();
            Instant ended = clock.instant();
            if (result.errors().isEmpty()) {
                settlements.add(Settlement.finished(reminder.ref()));
                delivered.add(new Delivered(
                        reminder,
                        attempt.json(),
                        attempt.channel(),
                        reminder.attempts() + 1,
                        Duration.between(reminder.ref().sendAt(), ended)));
                continue;
            }
            DueReminder.Failure failed = reminder.afterFailure(
                    String.join("; ", result.errors()),
                    result.reached(),
                    delivery.maxAttempts(),
                    ended,
                    this::backoffAfter);
            failures.add(failed);
            if (failed.isFinal()) {
                settlements.add(Settlement.finished(reminder.ref()));
                Log.warnf(
                        "Reminder %s FAILED after %d attempts; last error: %s",
                        reminder.ref().id(), failed.attempts(), failed.error());
            } else {
                settlements.add(Settlement.dueAgainIn(reminder.ref(), Duration.between(ended, failed.nextAttemptAt())));
                Log.infof(
                        "Attempt %d of reminder %s failed (%s); next attempt at %s",
                        failed.attempts(), reminder.ref().id(), failed.error(), failed.nextAttemptAt());
            }
        }
        store.delivered(delivered.stream().map(d -> d.reminder().id()).toList(), clock.instant());
        store.skipped(skipped);
        store.failed(failures);
        return new Outcome(
                settlements,
                delivered,
                skipped.size(),
                failures.stream()
                        .filter(DueReminder.Failure::isFinal)
                        .map(DueReminder.Failure::id)
                        .toList());
    }

    /**
     * Sends the reminder on each channel it has not reached yet: the webhook, and an e-mail to each attendee when
     * e-mail is on. The stream gets it once every channel has. The deployment's secret signs only what goes to the
     * default target; a meeting's own webhookUrl gets its owner's signature.
     */
    private Attempt send(DueReminder reminder, Map<String, WebhookSignature> ownerSignatures) {
        Notification notification = reminder.notification();
        String body = toJson(notification);
        List<Send> sends = new ArrayList<>();
        Optional<URI> target =
                reminder.webhookUrl() == null ? defaultTarget : Optional.of(URI.create(reminder.webhookUrl()));
        if (target.isPresent() && !reminder.hasReached(WEBHOOK)) {
            URI uri = target.get();
            // Checked again at send time: the operator may have taken the host off the list since the meeting was made.
            CompletableFuture<Void> sent = reminder.webhookUrl() == null || allowList.allows(uri)
                    ? webhook.send(
                            uri,
                            reminder.ref().id(),
                            body,
                            reminder.webhookUrl() == null
                                    ? defaultTargetSignature
                                    : ownerSignatures.get(reminder.owner()))
                    : CompletableFuture.failedFuture(
                            new DeliveryFailure("the webhook's host is not on reminders.webhook.allowed-hosts"));
            sends.add(timed("webhook", WEBHOOK, sent));
        }
        if (email.isEnabled()) {
            List<String> unreached = reminder.attendees().stream()
                    .filter(attendee -> !reminder.hasReached(EMAIL + attendee))
                    .toList();
            if (!unreached.isEmpty()) {
                EmailChannel.Message message = email.compose(notification);
                for (String attendee : unreached) {
                    sends.add(timed("email", EMAIL + attendee, email.send(attendee, message)));
                }
            }
        }
        return new Attempt(reminder, body, sends);
    }

    private Send timed(String channel, String recipient, CompletableFuture<Void> sent) {
        long started = System.nanoTime();
        sent.whenComplete((ignored, error) ->
                metrics.attempt(channel, error == null, Duration.ofNanos(System.nanoTime() - started)));
        return new Send(channel, recipient, sent);
    }

    /** The delay after {@code attemptsMade} failed attempts: the backoff, doubled per further attempt, capped. */
    Duration backoffAfter(int attemptsMade) {
        Duration delay = delivery.backoff().multipliedBy(1L << Math.min(attemptsMade - 1, 20));
        return delay.compareTo(delivery.maxBackoff()) > 0 ? delivery.maxBackoff() : delay;
    }

    private void settle(Collection<Settlement> settlements) {
        try {
            timers.settle(settlements);
        } catch (RuntimeException e) {
            // The database holds the outcome; the entries come back when their leases end, and dispatch drops the
            // finished ones then.
            Log.warnf("Could not settle %d schedule entries in Redis: %s", settlements.size(), e.getMessage());
        }
    }

    private String toJson(Notification notification) {
        try {
            return json.writeValueAsString(notification);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A notification could not be written as JSON", e);
        }
    }

    /** One send on one channel to one recipient ({@code webhook}, {@code email:<address>}). */
    private record Send(String channel, String recipient, CompletableFuture<Void> sent) {

        /** Waits for the send (each channel bounds its own attempt, so this wait ends): empty, or why it failed. */
        Optional<String> failure() {
            try {
                sent.join();
                return Optional.empty();
            } catch (CompletionException e) {
                return Optional.of(
                        e.getCause() instanceof DeliveryFailure failure ? failure.getMessage() : "delivery failed");
            }
        }
    }

    private record Attempt(DueReminder reminder, String json, List<Send> sends) {

        /** Why the sends that failed failed, and whom the others reached. */
        record Result(List<String> errors, List<String> reached) {}

        /** Waits for every send, each once. */
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

    private record Delivered(DueReminder reminder, String json, String channel, int attempt, Duration lateness) {}

    /** What a committed round did; the metrics count it only once the commit has succeeded. */
    private record Outcome(List<Settlement> settlements, List<Delivered> delivered, int skipped, List<Long> failed) {}
}
