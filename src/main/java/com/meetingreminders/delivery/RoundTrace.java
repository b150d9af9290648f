package com.meetingreminders.delivery;

import com.meetingreminders.reminder.DeliveryPath;
import com.meetingreminders.tracing.TraceParent;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.common.Clock;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The spans of one delivery round. A round's own work (locking its rows, recording the outcomes, settling Redis) is
 * the span {@code deliver reminders}; each reminder it sends is a span {@code deliver reminder} beneath the span of
 * the request that planned it (its stored traceparent), so the receiver's trace joins that request's. A span has one
 * parent: a round whose reminders all come from one request is a child of that request's span, and its reminders'
 * spans are beneath it; a round of reminders from several requests is a trace of its own, linked to each of them,
 * and each reminder's span links back to it. The round's span starts only once its rows are read (they hold the
 * traceparents), back-dated to when the round began, with the lock query beneath it.
 */
final class RoundTrace {

    private static final Clock TIME = Clock.getDefault();

    private final Tracer tracer;
    private final long begun;
    private Span round;

    private RoundTrace(Tracer tracer) {
        this.tracer = tracer;
        this.begun = TIME.now();
    }

    static RoundTrace begin(Tracer tracer) {
        return new RoundTrace(tracer);
    }

    /** The rows are read and locked: the round's span starts, back-dated, with the lock query beneath it. */
    void locked(Collection<DueReminder> rows, int held, DeliveryPath path) {
        Set<String> planners = new HashSet<>();
        rows.forEach(row -> planners.add(row.traceParent()));
        Context parent = planners.size() == 1 && !planners.contains(null)
                ? TraceParent.parse(planners.iterator().next())
                : Context.root();
        SpanBuilder builder = tracer.spanBuilder("deliver reminders")
                .setParent(parent)
                .setStartTimestamp(begun, TimeUnit.NANOSECONDS)
                .setAttribute("reminders.held", held)
                .setAttribute("reminders.path", path.name().toLowerCase(Locale.ROOT));
        if (parent == Context.root()) {
            planners.stream()
                    .map(TraceParent::parse)
                    .map(context -> Span.fromContext(context).getSpanContext())
                    .filter(SpanContext::isValid)
                    .forEach(builder::addLink);
        }
        round = builder.startSpan();
        database("SELECT", begun);
    }

    /**
     * The span of one reminder's delivery, started now; the notification's requests go beneath it. Ended by the
     * caller once its sends have.
     */
    Span reminder(DueReminder reminder) {
        Context planned = TraceParent.parse(reminder.traceParent());
        SpanContext plannedSpan = Span.fromContext(planned).getSpanContext();
        boolean elsewhere = plannedSpan.isValid()
                && !plannedSpan.getTraceId().equals(round.getSpanContext().getTraceId());
        SpanBuilder builder = tracer.spanBuilder("deliver reminder")
                .setParent(elsewhere ? planned : Context.root().with(round))
                .setAttribute("reminders.delivery_id", reminder.ref().id())
                .setAttribute("reminders.attempt", reminder.attempts() + 1L);
        if (elsewhere) {
            builder.addLink(round.getSpanContext());
        }
        return builder.startSpan();
    }

    /** The moment recording begins, for {@link #recorded}. */
    static long now() {
        return TIME.now();
    }

    /** The outcomes were written and committed, from {@code since} until now. */
    void recorded(long since) {
        database("UPDATE", since);
    }

    /** Makes the round's span current, so that the Redis calls made meanwhile go beneath it. */
    Scope current() {
        return round == null ? Scope.noop() : round.makeCurrent();
    }

    /** The round failed before or while recording: nothing was recorded. */
    void failed(RuntimeException e) {
        if (round == null) {
            round = tracer.spanBuilder("deliver reminders")
                    .setNoParent()
                    .setStartTimestamp(begun, TimeUnit.NANOSECONDS)
                    .startSpan();
        }
        round.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
    }

    void end() {
        if (round != null) {
            round.end();
        }
    }

    private void database(String operation, long since) {
        if (round == null) {
            // A paused round locks no rows and has no span: it records nothing worth a trace.
            return;
        }
        tracer.spanBuilder(operation + " reminder")
                .setParent(Context.root().with(round))
                .setSpanKind(SpanKind.CLIENT)
                .setStartTimestamp(since, TimeUnit.NANOSECONDS)
                .setAttribute("db.system", "postgresql")
                .setAttribute("db.operation.name", operation)
                .setAttribute("db.collection.name", "reminder")
                .startSpan()
                .end(TIME.now(), TimeUnit.NANOSECONDS);
    }
}
