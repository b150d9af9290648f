package com.meetingreminders.delivery;

import com.meetingreminders.config.DeliveryConfig;
import com.meetingreminders.delivery.ReminderSender.Attempt;
import com.meetingreminders.notify.Outgoing;
import com.meetingreminders.reminder.DeliveryPath;
import com.meetingreminders.timer.Settlement;
import io.opentelemetry.api.trace.SpanContext;
import io.quarkus.logging.Log;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.jboss.logging.MDC;

/**
 * What the sends of a round came to, once every one has ended: the reminders delivered, the failed attempts as the
 * database records them (FAILED once no attempt is left), and what becomes of each schedule entry.
 */
record RoundOutcome(List<Delivered> delivered, List<DueReminder.Failure> failures, List<Settlement> settlements) {

    private static final List<String> DELIVERY_LOG_FIELDS =
            List.of("deliveryId", "channel", "attempt", "latenessMs", "path");

    static RoundOutcome of(
            List<Attempt> attempts, Clock clock, DeliveryConfig delivery, IntFunction<Duration> backoffAfter) {
        RoundOutcome outcome = new RoundOutcome(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (Attempt attempt : attempts) {
            DueReminder reminder = attempt.reminder();
            Attempt.Result result = attempt.result();
            Instant ended = attempt.endedAt(clock);
            if (result.errors().isEmpty()) {
                outcome.settlements().add(Settlement.finished(reminder.ref()));
                outcome.delivered()
                        .add(new Delivered(
                                reminder,
                                attempt.message(),
                                attempt.channel(),
                                reminder.attempts() + 1,
                                Duration.between(reminder.ref().sendAt(), ended),
                                attempt.trace()));
                continue;
            }
            DueReminder.Failure failed = reminder.afterFailure(
                    String.join("; ", result.errors()), result.reached(), delivery.maxAttempts(), ended, backoffAfter);
            outcome.failures().add(failed);
            if (failed.isFinal()) {
                outcome.settlements().add(Settlement.finished(reminder.ref()));
                withTraceIds(
                        attempt.trace(),
                        () -> Log.warnf(
                                "Reminder %s FAILED after %d attempts; last error: %s",
                                reminder.ref().id(), failed.attempts(), failed.error()));
            } else {
                outcome.settlements()
                        .add(Settlement.dueAgainIn(reminder.ref(), Duration.between(ended, failed.nextAttemptAt())));
                withTraceIds(
                        attempt.trace(),
                        () -> Log.infof(
                                "Attempt %d of reminder %s failed (%s); next attempt at %s",
                                failed.attempts(), reminder.ref().id(), failed.error(), failed.nextAttemptAt()));
            }
        }
        return outcome;
    }

    /**
     * Logs with the trace and span ids of the reminder's delivery span, under the MDC keys Quarkus uses for the
     * current span ({@code traceId}, {@code spanId}): the round's worker has no current span of its own.
     */
    private static void withTraceIds(SpanContext trace, Runnable log) {
        MDC.put("traceId", trace.getTraceId());
        MDC.put("spanId", trace.getSpanId());
        try {
            log.run();
        } finally {
            MDC.remove("traceId");
            MDC.remove("spanId");
        }
    }

    List<Long> deliveredIds() {
        return delivered.stream().map(d -> d.reminder().id()).toList();
    }

    /** The ids of the reminders that ended FAILED in this round: their owners are told. */
    List<Long> finalFailures() {
        return failures.stream()
                .filter(DueReminder.Failure::isFinal)
                .map(DueReminder.Failure::id)
                .toList();
    }

    /** A reminder every channel reached, with what the channels took, for those that announce it after the commit. */
    record Delivered(
            DueReminder reminder, Outgoing message, String channel, int attempt, Duration lateness, SpanContext trace) {

        /**
         * One line per delivery. Its figures are also MDC entries, so that JSON logs carry them as fields of their own
         * ({@code mdc.deliveryId}, {@code mdc.latenessMs}, ...) for log queries.
         */
        void log(DeliveryPath path) {
            if (!Log.isInfoEnabled()) {
                return;
            }
            String deliveryId = reminder.ref().id();
            String pathName = path.name().toLowerCase(Locale.ROOT);
            long latenessMs = lateness.toMillis();
            MDC.put("deliveryId", deliveryId);
            MDC.put("channel", channel);
            MDC.put("attempt", Integer.toString(attempt));
            MDC.put("latenessMs", Long.toString(latenessMs));
            MDC.put("path", pathName);
            // Written out here, not as a printf pattern: java.util.Formatter parsing the pattern again for every
            // delivery was a quarter of the log thread's CPU in a burst (async-profiler).
            String line = "Delivered reminder " + deliveryId + " (channel=" + channel + ", attempt=" + attempt
                    + ", lateness=" + latenessMs + "ms, path=" + pathName + ")";
            try {
                withTraceIds(trace, () -> Log.info(line));
            } finally {
                for (String key : DELIVERY_LOG_FIELDS) {
                    MDC.remove(key);
                }
            }
        }
    }
}
