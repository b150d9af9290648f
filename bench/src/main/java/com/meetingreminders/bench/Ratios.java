package com.meetingreminders.bench;

/** The ratios a service row carries to the rows it is set beside: floors, peers, the single node, the warm run. */
final class Ratios {

    private Ratios() {}

    /** Ratios of the service's p99 and drain to the floors' and the peers', on the service's row. */
    static void deliveries(Result service, Result delivery, Result events, Result poller, Result peer, Result bullMq) {
        delivery(service, delivery, "floor_delivery");
        delivery(service, events, "floor_events");
        delivery(service, poller, "floor_poller");
        delivery(service, peer, "peer");
        delivery(service, bullMq, "bullmq");
    }

    static void delivery(Result service, Result other, String name) {
        if (other == null || other.p99 == null || service.p99 == null) {
            return;
        }
        service.figure("delivered_" + name, other.delivered + "/" + other.expected);
        // A ratio to a run that did not finish in its time would flatter the service by an unknown factor.
        if (other.delivered.equals(other.expected)) {
            service.figure("p99_x_" + name, round((double) service.p99 / Math.max(1, other.p99)));
            service.figure("drain_x_" + name, round((double) service.drain / Math.max(1, other.drain)));
            cpu(service, other, "cpu_x_" + name);
        }
    }

    /** The CPU a reminder or a create cost the service, all processes together, over what it cost the other. */
    private static void cpu(Result service, Result other, String name) {
        if (service.figures.get("cpu_us_each") instanceof Number mine
                && other.figures.get("cpu_us_each") instanceof Number theirs
                && theirs.longValue() > 0) {
            service.figure(name, round(mine.doubleValue() / theirs.doubleValue()));
        }
    }

    /**
     * Ratios of the service's creates to the write floor's, on the service's row: requests a second (the goal is at
     * least 0.8), p50 and p99 (within 1.25).
     */
    static void creates(Result service, Result floor) {
        Object serviceRate = service.figures.get("requests_per_s");
        Object floorRate = floor.figures.get("requests_per_s");
        if (serviceRate instanceof Number rate && floorRate instanceof Number other && other.doubleValue() > 0) {
            service.figure("requests_per_s_x_floor", round(rate.doubleValue() / other.doubleValue()));
        }
        if (service.p50 != null && floor.p50 != null) {
            service.figure("p50_x_floor", round(micros(service, "p50_us") / Math.max(1, micros(floor, "p50_us"))));
            service.figure("p99_x_floor", round(micros(service, "p99_us") / Math.max(1, micros(floor, "p99_us"))));
        }
        cpu(service, floor, "cpu_x_floor");
    }

    private static double micros(Result result, String figure) {
        return ((Number) result.figures.get(figure)).doubleValue();
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
