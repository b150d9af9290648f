package com.meetingreminders.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;

/**
 * A span's context as the W3C {@code traceparent} header spells it ({@code 00-{trace id}-{span id}-{flags}}): what a
 * reminder keeps in the database of the request that planned it, so that its delivery, on any replica and however
 * much later, joins that request's trace.
 */
public final class TraceParent {

    private static final String HEADER = "traceparent";

    /** Reads one stored value as if it were the only header of a request. */
    private static final TextMapGetter<String> STORED = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(HEADER);
        }

        @Override
        public String get(String carrier, String key) {
            return HEADER.equals(key) ? carrier : null;
        }
    };

    private TraceParent() {}

    /** The current span's traceparent, or null when there is none (tracing off, a thread outside any request). */
    public static String ofCurrentSpan() {
        SpanContext span = Span.current().getSpanContext();
        return span.isValid() ? of(span) : null;
    }

    public static String of(SpanContext span) {
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-"
                + span.getTraceFlags().asHex();
    }

    /** The span a stored traceparent names, as a remote parent; the root context for none or one that does not parse. */
    public static Context parse(String traceParent) {
        return traceParent == null
                ? Context.root()
                : W3CTraceContextPropagator.getInstance().extract(Context.root(), traceParent, STORED);
    }
}
