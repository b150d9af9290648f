package com.meetingreminders.timer;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.EventStream;
import com.meetingreminders.support.Figures;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.RedisCluster;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.ReplicaPair;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two packaged replicas on a Redis Cluster of 3 masters and 3 replicas of the test's own: reminders in the shards of
 * every master are delivered once, heard from every master; a master without expiration events is swept; a master
 * killed while reminders fall due loses nothing once its replica is promoted, and the new master is heard; FLUSHALL on
 * every master is repaired by reconciliation; the open streams of callers whose keys lie on different slots keep
 * counting.
 */
class RedisClusterIT {

    private static final String PATH = "/cluster";
    /** Enough for every master to hold some: the smallest of three holds 3 of the 12 shards, so (3/4)^60 misses. */
    private static final int REMINDERS = 60;

    private static final String READINESS_CHECK = "checks.find { it.name == 'Reminder timers (Redis)' }.data.";

    private static RedisCluster cluster;

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    private final String keyPrefix = "it-" + UUID.randomUUID() + ":";
    private final ReminderKeys keys = new ReminderKeys(keyPrefix, ReminderKeys.CLUSTER_SHARDS);

    @BeforeAll
    static void startCluster() {
        cluster = RedisCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void deliversOnceTheRemindersOfEveryMasterAndHearsEveryMaster() {
        try (ReplicaPair replicas = start("cluster", Map.of())) {
            awaitMastersHeard(3, replicas);

            Instant sendAt = createDue(replicas, 3);
            await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(30))).until(() -> distinct() >= REMINDERS);

            Figures figures = Figures.of(REMINDERS, receiver.on(PATH)).print("Redis Cluster, every master");
            Map<Integer, Long> byMaster = deliveredByMaster();
            System.out.printf("Delivered by the master holding their shard: %s%n", byMaster);
            assertThat(byMaster).hasSize(3).allSatisfy((master, count) -> assertThat(count)
                    .isPositive());
            assertThat(figures.delivered()).isEqualTo(REMINDERS);
            assertThat(figures.duplicates()).isZero();
        }
    }

    @Test
    void sweepsTheRemindersOfAMasterThatPublishesNoExpirationEvents() {
        cluster.onEveryMaster("CONFIG", "SET", "notify-keyspace-events", "Ex");
        int silent = cluster.masterPorts().get(0);
        cluster.cli(silent, "CONFIG", "SET", "notify-keyspace-events", "");
        // Not turned back on by the replicas, so that the silent master stays silent for the whole test.
        Map<String, String> settings = Map.of("reminders.redis.configure-notifications", "false");
        try (ReplicaPair replicas = start("silent", settings)) {
            awaitMastersHeard(2, replicas);

            Instant sendAt = createDue(replicas, 3);
            await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(30))).until(() -> distinct() >= REMINDERS);

            Figures figures = Figures.of(REMINDERS, receiver.on(PATH)).print("Expiration events off on one master");
            Map<Integer, Long> byMaster = deliveredByMaster();
            System.out.printf("Delivered by master (%d publishes no expiration events): %s%n", silent, byMaster);
            assertThat(byMaster.get(silent)).isPositive();
            assertThat(figures.delivered()).isEqualTo(REMINDERS);
            assertThat(figures.duplicates()).isZero();
        } finally {
            cluster.onEveryMaster("CONFIG", "SET", "notify-keyspace-events", "Ex");
        }
    }

    @Test
    void losesNothingWhenAMasterIsKilledWhileRemindersFallDueAndHearsItsPromotedReplica() {
        try (ReplicaPair replicas = start("failover", Map.of())) {
            awaitMastersHeard(3, replicas);
            // Spread over three seconds, so that some fall due before the kill, some during the failover, some after.
            Instant sendAt = createDue(replicas, 50);
            List<Integer> mastersBefore = cluster.masterPorts();
            int victim = mastersBefore.get(0);

            Moments.waitUntil(sendAt.plusMillis(500));
            long deliveredBeforeKill = distinct();
            cluster.kill(victim);
            Instant killedAt = Instant.now();
            cluster.awaitFailover(victim);
            Duration failover = Duration.between(killedAt, Instant.now());
            List<Integer> mastersAfter = cluster.masterPorts();

            await().atMost(Duration.ofSeconds(60)).until(() -> distinct() >= REMINDERS);
            awaitMastersHeard(3, replicas);

            Figures figures = Figures.of(REMINDERS, receiver.on(PATH))
                    .print("A master killed with kill -9 as reminders fall due");
            System.out.printf(
                    "Masters %s, then %s after killing %d: failover took %d ms; %d reminders delivered before the"
                            + " kill; delivered by master now holding their shard: %s%n",
                    mastersBefore, mastersAfter, victim, failover.toMillis(), deliveredBeforeKill, deliveredByMaster());
            assertThat(mastersAfter).hasSize(3).doesNotContain(victim);
            assertThat(figures.delivered()).isEqualTo(REMINDERS);
            // The replicas of the service were not harmed: the database's conditional update keeps each send once.
            assertThat(figures.duplicates()).isZero();
        }
    }

    @Test
    void rearmsEverythingAfterFlushallOnEveryMaster() {
        try (ReplicaPair replicas = start("flush", Map.of())) {
            Instant sendAt = createDue(replicas, 3);
            cluster.onEveryMaster("FLUSHALL");
            Instant flushedAt = Instant.now();

            await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(30))).until(() -> distinct() >= REMINDERS);

            Figures figures = Figures.of(REMINDERS, receiver.on(PATH)).print("FLUSHALL on every master");
            System.out.printf(
                    "Flushed %d ms before the first send time; delivered by master: %s%n",
                    Duration.between(flushedAt, sendAt).toMillis(), deliveredByMaster());
            assertThat(figures.delivered()).isEqualTo(REMINDERS);
            assertThat(figures.duplicates()).isZero();
        }
    }

    @Test
    void keepsCountingTheOpenStreamsOfCallersWhoseKeysLieInDifferentSlots() {
        Map<String, String> settings =
                settings(Map.of("reminders.limits.open-streams", "1", "reminders.limits.stream-lease", "9s"));
        try (Replica replica = Replica.start("streams", settings)) {
            URI streams = URI.create(replica.url("/reminders/stream"));
            try (EventStream alices = EventStream.connect(streams, "alice");
                    EventStream bobs = EventStream.connect(streams, "bob")) {
                Map<String, StreamLease> opened = streamLeases();
                assertThat(opened).hasSize(2);
                // The keys' slots follow from the random key prefix: one time in 16,384 they are the same.
                assumeThat(opened.values().stream().map(StreamLease::slot).distinct())
                        .as("slots of the callers' keys")
                        .hasSize(2);

                // The replica renews both streams' leases (every third of the lease): neither lapses while open.
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    Map<String, StreamLease> now = streamLeases();
                    return now.keySet().equals(opened.keySet())
                            && now.entrySet().stream()
                                    .allMatch(lease -> lease.getValue().endsAt()
                                            > opened.get(lease.getKey()).endsAt());
                });
                long firstLeasesEnd = opened.values().stream()
                        .mapToLong(StreamLease::endsAt)
                        .max()
                        .orElseThrow();
                await().atMost(Duration.ofSeconds(30)).until(() -> redisMillis() > firstLeasesEnd);

                try (EventStream another = EventStream.open(streams, Tokens.of("alice"))) {
                    assertThat(another.status()).isEqualTo(429);
                }
            }
        }
    }

    /** A stream's place in its caller's key: the key's slot and when the lease ends, in Redis time. */
    private record StreamLease(int slot, long endsAt) {}

    /** Every open stream's lease on the cluster's masters, by stream id. */
    private Map<String, StreamLease> streamLeases() {
        Map<String, StreamLease> leases = new HashMap<>();
        for (int port : cluster.masterPorts()) {
            for (String key : lines(cluster.cli(port, "KEYS", keyPrefix + "limits:streams:*"))) {
                List<String> membersAndScores = lines(cluster.cli(port, "ZRANGE", key, "0", "-1", "WITHSCORES"));
                for (int i = 0; i + 1 < membersAndScores.size(); i += 2) {
                    leases.put(membersAndScores.get(i), new StreamLease(ReminderKeys.slot(key), (long)
                            Double.parseDouble(membersAndScores.get(i + 1))));
                }
            }
        }
        return leases;
    }

    private long redisMillis() {
        List<String> time = lines(cluster.cli(cluster.masterPorts().get(0), "TIME"));
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    private static List<String> lines(String reply) {
        return reply.lines().filter(line -> !line.isBlank()).toList();
    }

    private ReplicaPair start(String name, Map<String, String> overrides) {
        return ReplicaPair.start(name, settings(overrides));
    }

    private Map<String, String> settings(Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "quarkus.datasource.jdbc.url",
                database.jdbcUrl(),
                "reminders.redis.key-prefix",
                keyPrefix,
                "reminders.redis.cluster-nodes",
                cluster.seeds(),
                "reminders.redis.masters-check-interval",
                "1s",
                "reminders.delivery.backoff",
                "200ms"));
        settings.putAll(overrides);
        return settings;
    }

    /** {@link #REMINDERS} reminders, {@code spacingMillis} apart, through both replicas; the first send time. */
    private Instant createDue(ReplicaPair replicas, long spacingMillis) {
        return replicas.createDue(
                REMINDERS, Duration.ofMillis(spacingMillis), receiver.url(PATH), receiver.url("/probe"));
    }

    private void awaitMastersHeard(int heard, ReplicaPair pair) {
        List<Replica> replicas = List.of(pair.a(), pair.b());
        await().atMost(Duration.ofSeconds(30)).until(() -> replicas.stream()
                .allMatch(replica -> Integer.valueOf(heard).equals(readiness(replica, "mastersHeard"))
                        && Integer.valueOf(3).equals(readiness(replica, "masters"))));
        for (Replica replica : replicas) {
            System.out.printf(
                    "Replica on port %d hears %s of %s masters%n",
                    replica.port(), readiness(replica, "mastersHeard"), readiness(replica, "masters"));
        }
    }

    private static Object readiness(Replica replica, String field) {
        return given().baseUri("http://127.0.0.1")
                .port(replica.port())
                .get("/q/health/ready")
                .then()
                .extract()
                .path(READINESS_CHECK + field);
    }

    private long distinct() {
        return receiver.on(PATH).stream().map(Received::deliveryId).distinct().count();
    }

    /** Distinct reminders delivered, by the port of the master that now serves their shard's slot. */
    private Map<Integer, Long> deliveredByMaster() {
        Map<Integer, List<int[]>> masters = cluster.masters();
        return receiver.on(PATH).stream()
                .map(Received::deliveryId)
                .distinct()
                .collect(Collectors.groupingBy(
                        id -> RedisCluster.masterOf(
                                masters,
                                ReminderKeys.slot(keys.schedule(
                                        keys.shardOf(ReminderRef.parse(id).orElseThrow())))),
                        TreeMap::new,
                        Collectors.counting()));
    }
}
