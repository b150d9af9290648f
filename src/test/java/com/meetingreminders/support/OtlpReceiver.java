package com.meetingreminders.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real OTLP/HTTP trace collector on a free loopback port: it accepts what exporters {@code POST} (protobuf, to any
 * path), decodes it with the OTLP message classes and keeps every span with the {@code service.instance.id} of the
 * process that sent it. Registered as a JUnit extension, it closes itself after each test.
 */
public final class OtlpReceiver implements AutoCloseable, AfterEachCallback {

    /** One span as exported; ids in lower-case hex, {@code parentSpanId} empty for a root. */
    public record ExportedSpan(
            String instance,
            String traceId,
            String spanId,
            String parentSpanId,
            String name,
            List<String> linkedSpans) {}

    private static final HexFormat HEX = HexFormat.of();

    private final HttpServer server;
    private final List<ExportedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<Throwable> undecoded = new CopyOnWriteArrayList<>();

    private OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", this::handle);
        server.start();
    }

    public static OtlpReceiver start() {
        try {
            return new OtlpReceiver();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The endpoint to give an exporter ({@code quarkus.otel.exporter.otlp.endpoint}). */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * The spans received so far; fails if an export could not be decoded, so that a test waiting for spans says why
     * none come instead of running out of time.
     */
    public List<ExportedSpan> spans() {
        if (!undecoded.isEmpty()) {
            AssertionError failed = new AssertionError("the collector could not decode an export");
            undecoded.forEach(failed::addSuppressed);
            throw failed;
        }
        return List.copyOf(spans);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange;
                InputStream body = exchange.getRequestBody()) {
            byte[] export = body.readAllBytes();
            try {
                keep(ExportTraceServiceRequest.parseFrom(export));
            } catch (IOException | LinkageError e) {
                // Not thrown on: the server's one thread would die with an Error, and every later export would hang.
                undecoded.add(e);
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    private void keep(ExportTraceServiceRequest request) {
        for (ResourceSpans resource : request.getResourceSpansList()) {
            String instance = resource.getResource().getAttributesList().stream()
                    .filter(attribute -> attribute.getKey().equals("service.instance.id"))
                    .map(KeyValue::getValue)
                    .map(value -> value.getStringValue())
                    .findFirst()
                    .orElse("");
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                scope.getSpansList()
                        .forEach(span -> spans.add(new ExportedSpan(
                                instance,
                                HEX.formatHex(span.getTraceId().toByteArray()),
                                HEX.formatHex(span.getSpanId().toByteArray()),
                                HEX.formatHex(span.getParentSpanId().toByteArray()),
                                span.getName(),
                                span.getLinksList().stream()
                                        .map(link ->
                                                HEX.formatHex(link.getSpanId().toByteArray()))
                                        .toList())));
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
