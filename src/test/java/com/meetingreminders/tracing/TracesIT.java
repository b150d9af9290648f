package com.meetingreminders.tracing;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Moments;
import com.meetingreminders.support.OtlpReceiver;
import com.meetingreminders.support.OtlpReceiver.ExportedSpan;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.WebhookReceiver;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two packaged replicas exporting to a real OTLP/HTTP collector on loopback: a meeting created through one and
 * delivered by the other is one connected trace, from the request to the receiver, whose request carries it.
 */
class TracesIT {

    /** Long enough for replica a to have stopped sweeping before the reminder falls due, on a busy machine too. */
    private static final Duration UNTIL_DUE = Duration.ofSeconds(20);

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @RegisterExtension
    final OtlpReceiver collector = OtlpReceiver.start();

    @Test
    void aMeetingCreatedOnOneReplicaAndDeliveredByTheOtherIsOneTraceThatTheReceiverJoins() {
        CompletableFuture<Replica> startingA =
                CompletableFuture.supplyAsync(() -> Replica.start("traces-a", settings("a")));
        CompletableFuture<Replica> startingB =
                CompletableFuture.supplyAsync(() -> Replica.start("traces-b", settings("b")));
        try (Replica a = startingA.join();
                Replica b = startingB.join()) {
            Instant sendAt = Moments.now().plus(UNTIL_DUE);
            a.create(meeting()
                    .startsAt(sendAt.plusSeconds(60))
                    .remindBefore("PT1M")
                    .webhookUrl(receiver.url("/traced")));
            // Only b is left to deliver it; a's spans are exported as it stops.
            a.terminate(Duration.ofSeconds(30));
            assertThat(Moments.now())
                    .as("replica a stopped before the reminder fell due")
                    .isBefore(sendAt);

            await().atMost(Duration.between(Moments.now(), sendAt).plusSeconds(30))
                    .until(() -> receiver.on("/traced").size() == 1);
            String[] traceparent =
                    receiver.on("/traced").get(0).header("traceparent").split("-");
            String traceId = traceparent[1];
            String receiverParent = traceparent[2];
            // The spans come in batches, from two processes: wait until the whole trace is in.
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertOneTrace(collector.spans(), traceId, receiverParent));
        }
    }

    /** One connected trace from a's request to b's webhook request, whose id the receiver got in traceparent. */
    private static void assertOneTrace(List<ExportedSpan> exported, String traceId, String receiverParent) {
        List<ExportedSpan> trace =
                exported.stream().filter(span -> span.traceId().equals(traceId)).toList();
        Map<String, ExportedSpan> byId = trace.stream().collect(Collectors.toMap(ExportedSpan::spanId, span -> span));
        ExportedSpan request = trace.stream()
                .filter(span -> span.parentSpanId().isEmpty())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no root span in " + trace));
        assertThat(request.instance()).isEqualTo("a");
        assertThat(request.name()).isEqualTo("POST /meetings");
        // Connected: every other span of the trace has its parent in it, so each reaches the request.
        assertThat(trace).filteredOn(span -> span != request).allSatisfy(span -> assertThat(byId)
                .containsKey(span.parentSpanId()));
        assertThat(names(trace, "a")).contains("POST /meetings", "EVALSHA arm");
        assertThat(names(trace, "b"))
                .contains(
                        "deliver reminders",
                        "SELECT reminder",
                        "deliver reminder",
                        "POST",
                        "UPDATE reminder",
                        "EVALSHA settle");
        ExportedSpan post = byId.get(receiverParent);
        assertThat(post).as("the span the receiver's traceparent names").isNotNull();
        assertThat(post.instance()).isEqualTo("b");
        assertThat(post.name()).isEqualTo("POST");
        assertThat(byId.get(post.parentSpanId()).name()).isEqualTo("deliver reminder");
    }

    private Map<String, String> settings(String instance) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "quarkus.datasource.jdbc.url",
                database.jdbcUrl(),
                "reminders.redis.key-prefix",
                keys.prefix(),
                "reminders.webhook.secret",
                "whsec_3Cj7Jb2P0BBLz/TeR460GJVNceP1WtVUfE4tLFD+GJQ=",
                "quarkus.otel.exporter.otlp.endpoint",
                collector.endpoint(),
                "quarkus.otel.exporter.otlp.traces.protocol",
                "http/protobuf",
                "quarkus.otel.bsp.schedule.delay",
                "100ms",
                "quarkus.otel.resource.attributes",
                "service.instance.id=" + instance));
        return settings;
    }

    private static Set<String> names(List<ExportedSpan> trace, String instance) {
        return trace.stream()
                .filter(span -> span.instance().equals(instance))
                .map(ExportedSpan::name)
                .collect(Collectors.toSet());
    }
}
