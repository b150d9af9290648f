package com.meetingreminders.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The peer most teams would pick: BullMQ (bench/bullmq, Node), delayed jobs on a Redis of their own, whose Worker
 * POSTs each reminder's signed JSON to the same receiver over as many connections as the service keeps. A job queue
 * with retries but no database, no record of delivery and no guard against a job run twice by a stalled worker.
 */
final class BullMqPeer {

    private final SystemUnderTest system;

    BullMqPeer(SystemUnderTest system) {
        this.system = system;
    }

    /** {@code count} jobs due at one instant. */
    Result delayedJobs(String name, int count) throws Exception {
        int port = ChildProcess.freePort();
        ChildProcess redis = ChildProcess.redis(port);
        // Adding runs at some thousands of jobs a second here: the lead leaves it time to finish before the due
        // instant.
        Instant dueAt = Instant.now().plusSeconds(5 + count / 5_000).truncatedTo(ChronoUnit.MILLIS);
        ChildProcess peer = ChildProcess.start(
                name,
                List.of(
                        "node",
                        "bench/bullmq/peer.mjs",
                        Integer.toString(port),
                        system.hook(name),
                        Integer.toString(count),
                        Long.toString(dueAt.toEpochMilli()),
                        Integer.toString(DeliveryFloorLoop.CONNECTIONS)));
        try {
            system.awaitArrivals(name, count, dueAt.plusSeconds(60));
        } finally {
            peer.stop();
            redis.stop();
        }
        return Result.ofArrivals(name, "peer: BullMQ delayed jobs", count, system.arrivals(name), dueAt.toEpochMilli());
    }
}
