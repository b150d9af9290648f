package com.meetingreminders.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The benchmark run: the service (two replicas, a real receiver) through every scenario, with the floor and the
 * peer beside it on the same Redis. {@code bench/run [--quick] [--own-redis]} builds and starts it; results go to
 * bench/results.
 */
public final class Bench {

    private static final Path RESULTS = Path.of("bench", "results");
    private static final Duration COLD_SPREAD = Duration.ofSeconds(2);
    private static final long CLUSTER_PENDING = 100_000;
    private static final int CLUSTER_BURST = 10_000;
    /**
     * Creates of a side before the other's turn, in the warm rows of one client: under a second of either, twelve
     * turns each in a full run. Each turn's edge may hand a little of one side's trailing work (a compiler, a
     * PostgreSQL writer) to the other's window, so the turns are not made shorter still.
     */
    private static final int SEQUENTIAL_SLICE = 250;

    /**
     * Each side's slice of the concurrent creates rows, in seconds: four slices each in a full run, two in --quick. As
     * with the sequential slices, each turn's edge may hand a little of one side's trailing work to the other's CPU.
     */
    private static final int CONCURRENT_SLICE_SECONDS = 5;

    private final boolean quick;
    private final String only;
    private final List<Result> results = new ArrayList<>();
    /** When both replicas had become ready: the cold-start scenario's load falls due 20 s later. */
    private Instant ready;

    private Bench(boolean quick, String only) {
        this.quick = quick;
        this.only = only;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        List<String> options = List.of(args);
        Instant started = Instant.now();
        int onlyAt = options.indexOf("--only");
        Bench bench = new Bench(options.contains("--quick"), onlyAt >= 0 ? options.get(onlyAt + 1) : "");
        try (SystemUnderTest system =
                SystemUnderTest.start(options.contains("--own-redis"), options.contains("--profile"))) {
            bench.ready = Instant.now();
            bench.run(system);
        } finally {
            ChildProcess.stopAll();
        }
        if (bench.runsCluster()) {
            // After the single node's replicas have stopped, so that both have the machine to themselves.
            try (RedisCluster cluster = RedisCluster.start();
                    SystemUnderTest system =
                            SystemUnderTest.onCluster(cluster.seeds(), options.contains("--profile"))) {
                bench.runCluster(system);
            } finally {
                ChildProcess.stopAll();
            }
        }
        Files.createDirectories(RESULTS);
        List<String> replicaOptions = SystemUnderTest.replicaJavaOptions();
        String header = String.format(
                Locale.ROOT,
                "Measured %s with `%s%sbench/run%s` (%s), %d cores, two replicas, Redis, PostgreSQL and the receiver on"
                        + " one machine.",
                started,
                SystemUnderTest.replicaJavaHome()
                        .map(home -> "BENCH_REPLICA_JAVA_HOME=\"" + home + "\" ")
                        .orElse(""),
                replicaOptions.isEmpty()
                        ? ""
                        : "BENCH_REPLICA_JAVA_OPTIONS=\"" + String.join(" ", replicaOptions) + "\" ",
                options.isEmpty() ? "" : " " + String.join(" ", options),
                Duration.between(started, Instant.now()).toSeconds() + " s",
                Runtime.getRuntime().availableProcessors());
        // A run of one family writes a file of its own: latest.md stays one whole run, under the command it names.
        Report.write(RESULTS, bench.only.isEmpty() ? "latest" : "latest-only-" + bench.only, bench.results, header);
        System.out.println();
        System.out.println(header);
        System.out.println(Report.table(bench.results));
    }

    private void run(SystemUnderTest system) throws Exception {
        ServiceScenarios service = new ServiceScenarios(system);
        try (Floor floor = new Floor(system.redisAddress, Duration.ofSeconds(quick ? 10 : 30));
                Peer peer = new Peer(system.redisAddress, system)) {
            BullMqPeer bullMq = new BullMqPeer(system);
            record(service.footprint());
            Result cold = null;
            if (runs("cold")) {
                cold = record(service.spread("cold-2000-over-2s", 2_000, COLD_SPREAD, ready.plusSeconds(20)));
            }
            WriteFloor writeFloor = null;
            Result[] firstThousand = {};
            if (runs("creates")) {
                // Before anything warms either side: a client's first thousand creates on a replica just started.
                writeFloor = new WriteFloor(system.database, system.profile);
                firstThousand = new Result[] {
                    record(service.sequentialCreates("creates-sequential-first-1000", 1_000)),
                    record(writeFloor
                            .load(service.createBody())
                            .sequential("creates-sequential-first-1000-floor", 1_000))
                };
                Ratios.creates(firstThousand[0], firstThousand[1]);
            }
            if (runs("precision") || runs("burst") || runs("steady") || runs("cold") || only.equals("cluster")) {
                System.out.println("warming up until the compilers are quiet (not recorded)");
                record(service.warmDeliveries("warm-up-deliveries", warmUpBound()));
            }
            if (runs("precision") || runs("burst")) {
                deliveryRows(system, service, floor, peer, bullMq);
            }
            for (int perSecond :
                    runs("steady") ? (quick ? List.of(1_000) : List.of(1_000, 5_000)) : List.<Integer>of()) {
                Result steady = record(service.steady(perSecond, quick ? 20 : 60));
                plot(steady.name, steady);
            }
            if (only.equals("cluster")) {
                // The single-node figures the cluster variant is set beside, without the floor and the peer.
                record(service.precision(CLUSTER_PENDING));
                record(service.burst(CLUSTER_BURST));
            }
            if (writeFloor != null) {
                record(service.warmCreates(warmUpBound()));
                record(writeFloor.warmUp(service.createBody(), warmUpBound().dividedBy(2)));
            }
            for (int concurrency : runs("creates") ? (quick ? List.of(16) : List.of(16, 64)) : List.<Integer>of()) {
                // In slices that take turns, as the sequential row below: back to back, this row's throughput ratio
                // at concurrency 16 was 0.71, 0.89 and 0.77 in three runs of one build within twenty minutes.
                String name = "creates-concurrency-" + concurrency;
                List<Result> creates = CreateLoad.concurrentInTurns(
                        List.of(service.createLoad(), writeFloor.load(service.createBody())),
                        List.of(name, name + "-floor"),
                        concurrency,
                        quick ? 10 : 20,
                        CONCURRENT_SLICE_SECONDS);
                creates.forEach(this::record);
                Ratios.creates(creates.get(0), creates.get(1));
            }
            if (cold != null) {
                Result warm = record(service.spread(
                        "warm-2000-over-2s", 2_000, COLD_SPREAD, Instant.now().plusSeconds(10)));
                cold.figure("p50_x_warm", Ratios.round((double) cold.p50 / Math.max(1, warm.p50)));
                cold.figure("p99_x_warm", Ratios.round((double) cold.p99 / Math.max(1, warm.p99)));
            }
            if (writeFloor != null) {
                // Both sides warm, in slices that take turns: run back to back, this row's ratio moved from 1.70x
                // to 2.83x between runs, as whatever the machine did in one side's stretch fell on that side alone.
                List<Result> warm = CreateLoad.sequentialInTurns(
                        List.of(service.createLoad(), writeFloor.load(service.createBody())),
                        List.of("creates-sequential-warm", "creates-sequential-warm-floor"),
                        quick ? 1_000 : 3_000,
                        SEQUENTIAL_SLICE);
                warm.forEach(this::record);
                Ratios.creates(warm.get(0), warm.get(1));
            }
        }
    }

    /**
     * The precision and burst rows, beside the delivery floor: a JVM of its own, running only for these rows, so that
     * neither its start nor its idle timers count in another row's CPU.
     */
    private void deliveryRows(
            SystemUnderTest system, ServiceScenarios service, Floor floor, Peer peer, BullMqPeer bullMq)
            throws Exception {
        try (DeliveryFloor deliveryFloor = new DeliveryFloor(floor, system)) {
            // The floor is measured warm, as the service is: its first thousands of sends compile its path.
            record(deliveryFloor.warmUp(
                    "warm-up-deliveries-floor", warmUpBound().dividedBy(2)));
            for (long pending : runs("precision") ? pendingCounts() : List.<Long>of()) {
                Result precise = record(service.precision(pending));
                Result delivery = record(deliveryFloor.due(precise.name + "-floor-delivery", 1_000, pending));
                Result events = record(floor.subscriber(precise.name + "-floor", 1_000, pending));
                Ratios.deliveries(precise, delivery, events, null, null, null);
                plot(precise.name, precise, delivery, events);
            }
            if (runs("precision") && runs("burst")) {
                // The precision rows' shapes (up to a million pending) set both sides' compilers going again (the
                // floor's took 56% of its CPU in the next burst once), so both are warmed again before the bursts.
                record(service.warmDeliveries("warm-up-deliveries-again", warmUpBound()));
                record(deliveryFloor.warmUp(
                        "warm-up-deliveries-floor-again", warmUpBound().dividedBy(2)));
            }
            for (int count :
                    runs("burst") ? (quick ? List.of(10_000) : List.of(10_000, 100_000)) : List.<Integer>of()) {
                Result burst = record(service.burst(count));
                Result delivery = record(deliveryFloor.due(burst.name + "-floor-delivery", count, 0));
                Result events = record(floor.subscriber(burst.name + "-floor-events", count, 0));
                Result poller = record(floor.poller(burst.name + "-floor-poller", count));
                Result queue = record(peer.delayedQueue(burst.name + "-peer", count));
                Result jobs = record(bullMq.delayedJobs(burst.name + "-bullmq", count));
                Ratios.deliveries(burst, delivery, events, poller, queue, jobs);
                plot(burst.name, burst, delivery, events, poller, queue, jobs);
            }
        }
    }

    /**
     * The cluster variant: the same precision and burst scenarios, through two replicas in cluster mode on a cluster
     * of three masters, each row beside the single node's of this run.
     */
    private void runCluster(SystemUnderTest system) throws Exception {
        ServiceScenarios service = new ServiceScenarios(system);
        System.out.println("warming up the replicas on the cluster until the compilers are quiet (not recorded)");
        String warmUp = "warm-up-deliveries-cluster";
        record(service.warmDeliveries(warmUp, warmUpBound()).renamed(warmUp, "service on a Redis Cluster"));
        for (Result cluster : List.of(service.precision(CLUSTER_PENDING), service.burst(CLUSTER_BURST))) {
            Result single = results.stream()
                    .filter(result -> result.name.equals(cluster.name) && result.system.equals("service"))
                    .findFirst()
                    .orElseThrow();
            Result renamed = cluster.renamed(
                    cluster.name + "-cluster", "service on a Redis Cluster of " + RedisCluster.MASTERS + " masters");
            renamed.figure("masters", RedisCluster.MASTERS).figure("shards", "12 (the cluster default)");
            Ratios.delivery(renamed, single, "single_node");
            record(renamed);
            plot(renamed.name, single, renamed);
        }
    }

    /**
     * The cluster variant runs in a full run and with --only cluster. A plain --quick leaves it out: a cluster, two
     * more replicas and their warm-up cost about a minute that a quick run is not meant to spend.
     */
    private boolean runsCluster() {
        return only.equals("cluster") || (only.isEmpty() && !quick);
    }

    /**
     * How long the service's replicas may take to warm up on one family of scenarios; a floor gets half. Full runs
     * found the replicas quiet after about 70 s of creates, but not after 180 s of their first deliveries: every run
     * on this machine stopped there with their compilers at 14 to 42% of their CPU. A log of their compilations
     * (-XX:+PrintCompilation) showed no compile loop (a tenth of some 3,500 top-tier compiles were thrown out, none
     * more than five times for one method), just a wide program compiled slowly on two busy cores, down to a few
     * top-tier compiles every 20 s from about 220 s after the replica started. A quick run gives less, and its rows
     * say if it fell short.
     */
    private Duration warmUpBound() {
        return Duration.ofSeconds(quick ? 60 : 300);
    }

    private List<Long> pendingCounts() {
        return quick ? List.of(0L, 100_000L) : List.of(0L, 100_000L, 1_000_000L);
    }

    /** Whether this run includes a family of scenarios: every run does, unless --only names one. */
    private boolean runs(String family) {
        return only.isEmpty() || only.equals(family);
    }

    private Result record(Result result) {
        results.add(result);
        System.out.printf(
                Locale.ROOT,
                "%-34s %-30s delivered %s/%s dup %s p50 %s p99 %s max %s drain %s %s%n",
                result.name,
                result.system,
                result.delivered,
                result.expected,
                result.duplicates,
                result.p50,
                result.p99,
                result.max,
                result.drain,
                result.figures);
        return result;
    }

    /** The plots of a whole run beside latest.md; those of an --only run named after it, leaving the whole run's. */
    private void plot(String name, Result... series) throws Exception {
        Files.createDirectories(RESULTS);
        String file = only.isEmpty() ? name : "latest-only-" + only + "-" + name;
        Plots.lateness(RESULTS.resolve(file + "-lateness"), name + ": lateness CDF", List.of(series));
        Plots.rate(RESULTS.resolve(file + "-rate"), name + ": deliveries per second", List.of(series));
    }
}
