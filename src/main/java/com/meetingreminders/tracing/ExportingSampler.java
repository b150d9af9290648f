package com.meetingreminders.tracing;

import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.quarkus.arc.Unremovable;
import io.quarkus.logging.Log;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Records spans only where a collector is named. Without an OTLP endpoint nothing is sampled, so nothing is ever
 * exported and no export error is logged (Quarkus would otherwise send to localhost:4317 and log each failure); trace
 * and span ids are still made, written to the logs and carried in {@code traceparent}. With one, a span is sampled as
 * its parent was, and a new trace with {@code quarkus.otel.traces.sampler.arg} (a ratio, default 1: every one).
 */
@Singleton
class ExportingSampler {

    /** What Quarkus falls back to when no endpoint is set; it may show up as a value of the keys below. */
    private static final String QUARKUS_FALLBACK = "http://localhost:4317/";

    /** Unremovable: Quarkus looks samplers up by type when it builds the SDK, which no injection point shows. */
    @Produces
    @Singleton
    @Unremovable
    Sampler sampler(
            @ConfigProperty(name = "quarkus.otel.exporter.otlp.endpoint") Optional<String> endpoint,
            @ConfigProperty(name = "quarkus.otel.exporter.otlp.traces.endpoint") Optional<String> tracesEndpoint,
            @ConfigProperty(name = "quarkus.otel.traces.sampler.arg", defaultValue = "1") double ratio) {
        Optional<String> collector = Stream.of(tracesEndpoint, endpoint)
                .flatMap(Optional::stream)
                .map(String::trim)
                .filter(value -> !value.isEmpty() && !value.equals(QUARKUS_FALLBACK))
                .findFirst();
        if (collector.isEmpty()) {
            Log.info("Traces are not recorded: no OTLP endpoint (quarkus.otel.exporter.otlp.endpoint) is set");
            return Sampler.alwaysOff();
        }
        Log.infof("Traces are exported to %s (sampling %s of new traces)", collector.get(), ratio);
        return Sampler.parentBased(Sampler.traceIdRatioBased(ratio));
    }
}
