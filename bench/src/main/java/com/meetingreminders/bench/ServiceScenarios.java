package com.meetingreminders.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** The scenarios that go through the service: reminders created over REST, received by the receiver process. */
final class ServiceScenarios {

    /** Reminders of a meeting loaded only to be pending: ten, far in the future. */
    private static final String[] TEN = {"PT1M", "PT2M", "PT3M", "PT4M", "PT5M", "PT6M", "PT7M", "PT8M", "PT9M", "PT10M"
    };
    /** Due reminders are created an hour before their meeting: a slow load makes one due at once, never invalid. */
    private static final Duration AHEAD = Duration.ofHours(1);

    private final SystemUnderTest system;
    private long pending;
    /** Meetings a second the batch endpoint took in the last load: sets the lead before a burst is due. */
    private double loadRate = 2_000;

    ServiceScenarios(SystemUnderTest system) {
        this.system = system;
    }

    /**
     * Runs what the delivery scenarios run, unrecorded, until the replicas' compilers are quiet (see {@link
     * JitWarmUp}), so that they measure the service as it runs in production: warm. Each warm-up of a run has a
     * {@code name} of its own: its slices are named after it, and the receiver counts a slice's arrivals by name.
     */
    Result warmDeliveries(String name, Duration atMost) throws Exception {
        return JitWarmUp.until(name, "service", "replicas", atMost, slice -> dueAtOnce(name + "-" + slice, 10_000));
    }

    /** The same for the creates scenarios: slices of 5 s of creates, at concurrency 16 and 64 in turn. */
    Result warmCreates(Duration atMost) throws Exception {
        return JitWarmUp.until("warm-up-creates", "service", "replicas", atMost, slice -> createLoad()
                .concurrent("warm-up", slice % 2 == 0 ? 16 : 64, 5));
    }

    /** 1,000 reminders due at one instant with {@code target} others pending far in the future. */
    Result precision(long target) throws Exception {
        addPending(target - pending);
        // The row measures lateness among that many pending, not beside the writes that follow loading them (a
        // checkpoint; autovacuum too, on a server that runs it: this machine's does not; the load ends with the
        // analyze that autoanalyze would run).
        CpuTime.onceQuiet("postgres", Duration.ofSeconds(120));
        Result result = dueAtOnce("precision-" + pending + "-pending", 1_000);
        return result.figure("pending", pending);
    }

    /** {@code count} reminders due at one instant. */
    Result burst(int count) throws Exception {
        return dueAtOnce("burst-" + count, count);
    }

    /** {@code perSecond} reminders due every second for {@code seconds}; samples resident memory meanwhile. */
    Result steady(int perSecond, int seconds) throws Exception {
        String name = "steady-" + perSecond + "-per-s";
        Duration spacing = Duration.ofSeconds(seconds).dividedBy(10);
        int meetings = perSecond * seconds / 10;
        Instant dueFrom = leadFor(meetings);
        List<String> bodies = new ArrayList<>(meetings);
        for (int i = 0; i < meetings; i++) {
            // Each meeting's ten reminders are one spacing apart; the offsets fill a spacing evenly.
            Instant first = dueFrom.plus(spacing.multipliedBy(i).dividedBy(meetings));
            String[] remindBefore = new String[10];
            for (int k = 0; k < 10; k++) {
                remindBefore[k] = AHEAD.plus(spacing.multipliedBy(9 - k)).toString();
            }
            bodies.add(meeting(first.plus(spacing.multipliedBy(9)).plus(AHEAD), remindBefore, name));
        }
        load(bodies);
        long expected = (long) meetings * 10;
        AtomicLong peakResident = new AtomicLong(system.residentBytes());
        Instant end = dueFrom.plusSeconds(seconds).plusSeconds(30);
        while (Instant.now().isBefore(end) && system.count(name) < expected) {
            peakResident.accumulateAndGet(system.residentBytes(), Math::max);
            Thread.sleep(500);
        }
        Result result = Result.ofArrivals(name, "service", expected, system.arrivals(name), dueFrom.toEpochMilli());
        return result.figure("peak_resident_mb_two_replicas", peakResident.get() / (1024 * 1024));
    }

    /** One client creating {@code count} meetings one after another, on one replica. */
    Result sequentialCreates(String name, int count) throws Exception {
        return createLoad().sequential(name, count);
    }

    /** What every creates scenario sends, to the service and to the write floor alike. */
    String createBody() {
        Instant startsAt = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.SECONDS);
        return meeting(startsAt, new String[] {"PT5M"}, "creates");
    }

    /** The creates scenarios' load on the replicas, each worker on one of them in turn. */
    CreateLoad createLoad() {
        List<Integer> ports =
                system.replicas.stream().map(SystemUnderTest.Replica::port).toList();
        return new CreateLoad("service", ports, createBody());
    }

    /** Start-to-ready of each replica and resident memory at rest. */
    Result footprint() {
        Result result = new Result("footprint", "service");
        for (SystemUnderTest.Replica replica : system.replicas) {
            result.figure(
                    "start_to_ready_ms_" + replica.process().name,
                    replica.startToReady().toMillis());
        }
        return result.figure("idle_resident_mb_two_replicas", system.residentBytes() / (1024 * 1024));
    }

    private Result dueAtOnce(String name, int count) throws Exception {
        Instant dueAt = leadFor(count);
        List<String> bodies = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            bodies.add(meeting(dueAt.plus(AHEAD), new String[] {AHEAD.toString()}, name));
        }
        Duration loading = load(bodies);
        if (Instant.now().isAfter(dueAt)) {
            System.out.printf("  %s: loading took %s and ran past the due time%n", name, loading);
        }
        CpuTime fallingDue = CpuTime.at(dueAt);
        system.awaitArrivals(name, count, dueAt.plusSeconds(60));
        return Result.ofArrivals(name, "service", count, system.arrivals(name), dueAt.toEpochMilli())
                .cpu(fallingDue, CpuTime.onceQuiet("replicas", Duration.ofSeconds(30)), count);
    }

    /**
     * {@code count} reminders falling due evenly over {@code over}, the first at {@code firstDue}: the cold-start
     * scenario's load, on replicas just become ready and again once warm.
     */
    Result spread(String name, int count, Duration over, Instant firstDue) throws Exception {
        List<String> bodies = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Instant due = firstDue.plus(over.multipliedBy(i).dividedBy(count));
            bodies.add(meeting(due.plus(AHEAD), new String[] {AHEAD.toString()}, name));
        }
        load(bodies);
        if (Instant.now().isAfter(firstDue)) {
            System.out.printf("  %s: loading ran past the first due time%n", name);
        }
        system.awaitArrivals(name, count, firstDue.plus(over).plusSeconds(60));
        return Result.ofArrivals(name, "service", count, system.arrivals(name), firstDue.toEpochMilli())
                .figure("due_over_ms", over.toMillis());
    }

    private void addPending(long reminders) {
        Instant far = Instant.now().plus(Duration.ofDays(7)).truncatedTo(ChronoUnit.SECONDS);
        List<String> bodies = new ArrayList<>();
        for (long i = 0; i < reminders / TEN.length; i++) {
            bodies.add(meeting(far.plusSeconds(i), TEN, "far"));
        }
        load(bodies);
        pending += (long) bodies.size() * TEN.length;
    }

    private Duration load(List<String> bodies) {
        Duration took = system.create(bodies);
        if (bodies.size() >= SystemUnderTest.BATCH) {
            loadRate = bodies.size() / Math.max(0.001, took.toNanos() / 1e9);
        }
        return took;
    }

    /** A due time far enough ahead for {@code meetings} to be created before it. */
    private Instant leadFor(int meetings) {
        long millis = 2_000 + (long) (1_500 * meetings / loadRate);
        return Instant.now().plusMillis(millis).truncatedTo(ChronoUnit.MILLIS);
    }

    private String meeting(Instant startsAt, String[] remindBefore, String scenario) {
        StringBuilder durations = new StringBuilder();
        for (String duration : remindBefore) {
            durations
                    .append(durations.isEmpty() ? "" : ",")
                    .append('"')
                    .append(duration)
                    .append('"');
        }
        return "{\"title\":\"Bench\",\"startsAt\":\"" + startsAt.truncatedTo(ChronoUnit.MILLIS)
                + "\",\"remindBefore\":[" + durations + "],\"webhookUrl\":\"" + system.hook(scenario) + "\"}";
    }
}
