package com.meetingreminders.deploy;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.meetingreminders.support.ContainerReplica;
import com.meetingreminders.support.Figures;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.Podman;
import com.meetingreminders.support.WebhookReceiver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The service's image, built from the packaged application, run as two containers against the machine's PostgreSQL
 * and Redis the way a deployment runs it; one of them is stopped with podman stop while reminders fall due.
 */
class ContainerIT {

    private static final String PATH = "/containers";
    private static final int MEETINGS = 60;
    /** Two reminders a meeting, a second apart; the meetings 200 ms apart: 120 reminders over 13 seconds. */
    private static final String[] REMIND_BEFORE = {"PT60S", "PT61S"};
    /** The webhook timeout plus 5 s: the bound the README gives for a replica's exit after SIGTERM. */
    private static final Duration EXIT_BOUND = Duration.ofSeconds(10);

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @BeforeAll
    static void imageBuilt() {
        String reason = Podman.unavailableBecause();
        assumeTrue(reason == null, () -> "ContainerIT skipped: " + reason);
        Podman.buildTestImageOnce();
    }

    @Test
    void twoContainersDeliverEveryReminderOnceWhileOneIsStoppedMidway() throws IOException {
        // The webhook secret comes from a mounted file, as a deployment's Secret gives it: every delivery is signed.
        Path secrets = Path.of("target", "container-it", "secrets.properties");
        Files.createDirectories(secrets.getParent());
        Files.writeString(secrets, "reminders.webhook.secret=whsec_Y29udGFpbmVyLWl0LXNlY3JldC0zMi1ieXRlcy1sb24=\n");
        // A lease longer than the test waits: a reminder the stopped container neither sent nor handed back fails it.
        Map<String, String> environment = Map.of(
                "QUARKUS_DATASOURCE_JDBC_URL", database.jdbcUrl(),
                "REMINDERS_REDIS_KEY_PREFIX", keys.prefix(),
                "REMINDERS_WEBHOOK_ALLOWED_HOSTS", "127.0.0.1",
                "REMINDERS_WEBHOOK_TIMEOUT", "5s",
                "REMINDERS_CLAIM_LEASE", "60s",
                "JAVA_TOOL_OPTIONS", "-Xmx384m");
        CompletableFuture<ContainerReplica> startingA = CompletableFuture.supplyAsync(
                () -> ContainerReplica.start("a", Podman.TEST_IMAGE, environment, secrets));
        CompletableFuture<ContainerReplica> startingB = CompletableFuture.supplyAsync(
                () -> ContainerReplica.start("b", Podman.TEST_IMAGE, environment, secrets));
        try (ContainerReplica a = startingA.join();
                ContainerReplica b = startingB.join()) {
            System.out.printf(
                    "Containers ready %d ms and %d ms after podman run%n",
                    a.startedIn().toMillis(), b.startedIn().toMillis());
            // Two JVMs at PID 1 on one host name: each is still a replica of its own to an operator.
            List<String> ids = await().atMost(Duration.ofSeconds(30)).until(a::readyReplicas, hasSize(2));
            List<String> pidsAtHost = ids.stream()
                    .map(id -> id.substring(0, id.indexOf('/')))
                    .distinct()
                    .toList();
            assertThat(pidsAtHost)
                    .as("both at PID 1 on one host name: what the drawn part of their ids tells apart")
                    .hasSize(1)
                    .allMatch(pidAtHost -> pidAtHost.startsWith("1@"));
            Instant firstSendAt = Moments.now().plusSeconds(10);
            IntStream.range(0, MEETINGS).parallel().forEach(i -> (i % 2 == 0 ? a : b)
                    .create(meeting()
                            .startsAt(firstSendAt.plus(Duration.ofMillis(61_000 + 200L * i)))
                            .remindBefore(REMIND_BEFORE)
                            .webhookUrl(receiver.url(PATH))));
            int due = MEETINGS * REMIND_BEFORE.length;

            await().atMost(Duration.ofSeconds(60)).until(() -> distinct() >= due / 3);
            Duration exitedAfter = a.stop(Duration.ofSeconds(30));
            System.out.printf("Container a stopped %d ms after podman stop%n", exitedAfter.toMillis());

            await().atMost(Duration.ofSeconds(40)).until(() -> distinct() >= due);
            Figures figures = Figures.of(due, receiver.on(PATH)).print("Two containers, one stopped mid-way");
            assertThat(figures.delivered()).isEqualTo(due);
            assertThat(figures.duplicates()).isZero();
            assertThat(receiver.on(PATH))
                    .allSatisfy(received ->
                            assertThat(received.headers().keySet()).anyMatch(header -> header.contains("signature")));
            assertThat(exitedAfter).isLessThan(EXIT_BOUND);
            assertThat(a.exitCode()).as("the JVM's exit on SIGTERM, not a kill").isEqualTo(143);
        }
    }

    private long distinct() {
        return receiver.on(PATH).stream()
                .map(WebhookReceiver.Received::deliveryId)
                .distinct()
                .count();
    }
}
