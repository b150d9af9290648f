package com.meetingreminders.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;

/**
 * Redis calls as client spans beneath the current span: Redisson has no instrumentation of its own. A call with no
 * current span (a sweep, a claim, reconciliation) is not traced, so that what runs every 100 ms on every replica makes
 * no traces of its own.
 */
@ApplicationScoped
public class RedisSpans {

    private final Tracer tracer;

    RedisSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    /** Runs {@code call}, one script of ours ({@code arm}, {@code settle}, ...), as span {@code EVALSHA {script}}. */
    public <T> T script(String script, Supplier<T> call) {
        if (!Span.current().getSpanContext().isValid()) {
            return call.get();
        }
        Span span = tracer.spanBuilder("EVALSHA " + script)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute("db.system", "redis")
                .setAttribute("db.operation.name", "EVALSHA")
                .startSpan();
        try (Scope ignored = span.makeCurrent()) {
            return call.get();
        } catch (RuntimeException e) {
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }
}
