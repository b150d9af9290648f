package com.meetingreminders.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.signing.OwnerSignatures;
import com.meetingreminders.signing.WebhookSignature;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.context.Context;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Tells a meeting's owner that a reminder ended FAILED: a {@code reminder.failed} event on the owner's stream and, if
 * the meeting names a failureWebhookUrl, one signed POST there. The notice is owed in the database from the commit
 * that made the reminder FAILED; whoever sends it leases it first, and records it once the POST has been tried. So a
 * replica that dies in between leaves it to the next pass of another (every {@code reminders.reconcile.interval}, once
 * the lease of {@code reminders.claim.lease} has run out), and the notice then comes once more with the same
 * {@code webhook-id}. The POST is tried once: a failure is logged and counted, never retried.
 */
// Made at start, not at its first use, so that its counters are exported, at zero, from the start.
@Startup
@ApplicationScoped
public class FailureNotices {

    /** Most notices one pass over the owed ones takes. */
    private static final int PASS_SIZE = 100;

    private final FailureNoticeStore store;
    private final StreamChannel stream;
    private final WebhookChannel webhook;
    private final ChosenTargets chosenTargets;
    private final OwnerSignatures ownerSignatures;
    private final ObjectMapper json;
    private final Clock clock;
    private final Duration lease;
    private final Map<Outcome, Counter> outcomes;
    // Database work of the notices, never on a round's worker (it hands off and goes on) nor on an event loop.
    private final ExecutorService worker;

    /** What became of a notice's POST; {@code refused}: its host is no longer on the allow-list. */
    enum Outcome {
        SENT,
        FAILED,
        REFUSED
    }

    FailureNotices(
            FailureNoticeStore store,
            StreamChannel stream,
            WebhookChannel webhook,
            ChosenTargets chosenTargets,
            OwnerSignatures ownerSignatures,
            ObjectMapper json,
            Clock clock,
            MeterRegistry registry,
            BackgroundWork background,
            RemindersConfig config) {
        this.store = store;
        this.worker = background.worker("failure-notices");
        this.stream = stream;
        this.webhook = webhook;
        this.chosenTargets = chosenTargets;
        this.ownerSignatures = ownerSignatures;
        this.json = json;
        this.clock = clock;
        this.lease = config.claim().lease();
        this.outcomes = Map.of(
                Outcome.SENT, counter(registry, Outcome.SENT),
                Outcome.FAILED, counter(registry, Outcome.FAILED),
                Outcome.REFUSED, counter(registry, Outcome.REFUSED));
    }

    private static Counter counter(MeterRegistry registry, Outcome outcome) {
        return Counter.builder("reminders.failure.notices")
                .description(
                        "POSTs of failure notices to a meeting's failureWebhookUrl, by outcome; each is tried once")
                .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                .register(registry);
    }

    /**
     * These reminders ended FAILED in a round that has committed: their notices go out. Returns at once; a notice this
     * replica cannot send now stays owed, and a later pass sends it.
     */
    public void reminderFailed(Collection<Long> reminderIds) {
        if (reminderIds.isEmpty()) {
            return;
        }
        List<Long> ids = List.copyOf(reminderIds);
        try {
            worker.execute(() -> sendTaken(
                    () -> store.take(ids, clock.instant(), clock.instant().plus(lease))));
        } catch (RejectedExecutionException stopping) {
            Log.infof("Stopping: the failure notices of %d reminders are left to another replica", ids.size());
        }
    }

    /** Sends the notices still owed that nobody holds: those of a replica that died before or while sending them. */
    @Scheduled(
            every = "${reminders.reconcile.interval}",
            delayed = "${reminders.reconcile.interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sendOwed() {
        sendTaken(
                () -> store.takeOwed(PASS_SIZE, clock.instant(), clock.instant().plus(lease)));
    }

    private void sendTaken(Supplier<List<OwedNotice>> take) {
        List<OwedNotice> taken;
        try {
            taken = QuarkusTransaction.requiringNew().call(take::get);
        } catch (RuntimeException e) {
            // Still owed: the next pass tries again.
            Log.warnf("Could not take the failure notices owed: %s", e.getMessage());
            return;
        }
        if (taken.isEmpty()) {
            return;
        }
        stream.publish(taken.stream()
                .map(owed -> Announcement.named(FailureNotice.EVENT, owed.owner(), toJson(owed)))
                .toList());
        List<OwedNotice> posted = taken.stream()
                .filter(owed -> owed.failureWebhookUrl().isPresent())
                .toList();
        List<Long> streamOnly = taken.stream()
                .filter(owed -> owed.failureWebhookUrl().isEmpty())
                .map(OwedNotice::reminderId)
                .toList();
        if (!streamOnly.isEmpty()) {
            record(streamOnly);
        }
        if (posted.isEmpty()) {
            return;
        }
        try {
            Map<String, WebhookSignature> signatures = QuarkusTransaction.requiringNew()
                    .call(() -> ownerSignatures.of(
                            posted.stream().map(OwedNotice::owner).toList()));
            posted.forEach(owed -> post(owed, signatures.get(owed.owner())));
        } catch (RuntimeException e) {
            // Leased and not sent: once the lease runs out, a pass sends them.
            Log.warnf("Could not send %d failure notices now: %s", posted.size(), e.getMessage());
        }
    }

    /** One POST; whatever it comes to, the notice is recorded as sent and counted, and never tried again. */
    private void post(OwedNotice owed, WebhookSignature signature) {
        Optional<ChosenTargets.Chosen> target =
                chosenTargets.of(owed.failureWebhookUrl().orElseThrow());
        String webhookId = owed.notice().webhookId();
        // Checked again at send time: the operator may have taken the host off the list since the meeting was made.
        if (target.isEmpty()) {
            ended(owed, Outcome.REFUSED, "its host is not on reminders.webhook.allowed-hosts");
            return;
        }
        // A trace of its own: the notice keeps no trace context of the reminder's.
        webhook.send(target.get(), webhookId, toJson(owed), signature, Context.root())
                .whenCompleteAsync((ignored, error) -> ended(owed, outcomeOf(error), why(error)), worker);
    }

    private void ended(OwedNotice owed, Outcome outcome, String why) {
        outcomes.get(outcome).increment();
        if (outcome != Outcome.SENT) {
            Log.warnf(
                    "Failure notice %s was not delivered (%s); it is not sent again",
                    owed.notice().webhookId(), why);
        }
        record(List.of(owed.reminderId()));
    }

    private static Outcome outcomeOf(Throwable error) {
        if (error == null) {
            return Outcome.SENT;
        }
        return DeliveryFailure.unwrapped(error) instanceof RefusedTarget ? Outcome.REFUSED : Outcome.FAILED;
    }

    private static String why(Throwable error) {
        if (error == null) {
            return "";
        }
        Throwable cause = DeliveryFailure.unwrapped(error);
        return cause instanceof DeliveryFailure ? cause.getMessage() : "could not reach the receiver";
    }

    private void record(List<Long> reminderIds) {
        try {
            QuarkusTransaction.requiringNew().run(() -> store.noticed(reminderIds, clock.instant()));
        } catch (RuntimeException e) {
            // Owed still: once the lease runs out, a pass sends it again, with the same webhook-id.
            Log.warnf("Could not record %d failure notices as sent: %s", reminderIds.size(), e.getMessage());
        }
    }

    private String toJson(OwedNotice owed) {
        try {
            return json.writeValueAsString(owed.notice());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A failure notice could not be written as JSON", e);
        }
    }
}
