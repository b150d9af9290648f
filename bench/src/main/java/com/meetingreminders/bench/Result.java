package com.meetingreminders.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The figures of one scenario, as latest.json holds them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
final class Result {

    @JsonProperty
    final String name;

    @JsonProperty
    final String system;

    @JsonProperty
    Long expected;

    @JsonProperty
    Long delivered;

    @JsonProperty
    Long duplicates;

    @JsonProperty("p50_ms")
    Long p50;

    @JsonProperty("p99_ms")
    Long p99;

    @JsonProperty("max_ms")
    Long max;

    @JsonProperty("drain_ms")
    Long drain;

    /** Throughput, footprint and ratio figures, each named with its unit. */
    @JsonProperty
    final Map<String, Object> figures = new LinkedHashMap<>();

    /** Lateness of each arrival, sorted, for the CDF plot; not written to JSON. */
    transient List<Long> lateness = List.of();

    /** Arrival times relative to the first due time, for the rate plot; not written to JSON. */
    transient List<Long> arrivalOffsets = List.of();

    Result(String name, String system) {
        this.name = name;
        this.system = system;
    }

    /** Delivery figures from arrivals: lateness = arrival - sendAt; drain = last arrival - first due time. */
    static Result ofArrivals(String name, String system, long expected, List<Arrival> arrivals, long dueFrom) {
        Result result = new Result(name, system);
        result.expected = expected;
        Map<String, Integer> seen = new LinkedHashMap<>();
        List<Long> lateness = new java.util.ArrayList<>();
        List<Long> offsets = new java.util.ArrayList<>();
        long last = dueFrom;
        for (Arrival arrival : arrivals) {
            if (seen.merge(arrival.id(), 1, Integer::sum) == 1) {
                lateness.add(arrival.arrivedMillis() - arrival.dueMillis());
                offsets.add(arrival.arrivedMillis() - dueFrom);
                last = Math.max(last, arrival.arrivedMillis());
            }
        }
        lateness.sort(Long::compare);
        result.delivered = (long) seen.size();
        result.duplicates = (long) arrivals.size() - seen.size();
        result.lateness = lateness;
        result.arrivalOffsets = offsets;
        if (!lateness.isEmpty()) {
            result.p50 = percentile(lateness, 50);
            result.p99 = percentile(lateness, 99);
            result.max = lateness.get(lateness.size() - 1);
            result.drain = last - dueFrom;
        }
        return result;
    }

    static long percentile(List<Long> sorted, double p) {
        int index = (int) Math.ceil(sorted.size() * p / 100.0) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    /** The same figures under another name and system, as another run of the same scenario is recorded. */
    Result renamed(String newName, String newSystem) {
        Result copy = new Result(newName, newSystem);
        copy.expected = expected;
        copy.delivered = delivered;
        copy.duplicates = duplicates;
        copy.p50 = p50;
        copy.p99 = p99;
        copy.max = max;
        copy.drain = drain;
        copy.figures.putAll(figures);
        copy.lateness = lateness;
        copy.arrivalOffsets = arrivalOffsets;
        return copy;
    }

    /**
     * The CPU each unit of work ({@code units} reminders delivered, creates answered) cost from {@code from} to
     * {@code to}: in all ({@code cpu_us_each}) and by role ({@code cpu_us_each_replicas}, {@code _postgres}, ...; see
     * CpuTime); and, of each JVM that took a tenth of it or more, the share its JIT compilers took ({@code
     * jit_pct_replicas}, ...): a row measured while a side still compiles measures its compiler as much as its work.
     */
    Result cpu(CpuTime from, CpuTime to, long units) {
        return cpu(to.since(from), units);
    }

    /** The same of a spending already added up ({@link CpuTime#since}, {@link CpuTime#plus}). */
    Result cpu(CpuTime spent, long units) {
        Map<String, Long> micros = spent.microsEach(units);
        micros.forEach((role, each) -> figure(role.equals("total") ? "cpu_us_each" : "cpu_us_each_" + role, each));
        for (String role : spent.jvmRoles()) {
            long percent = spent.compilingPercent(role);
            if (percent >= 0 && micros.getOrDefault(role, 0L) * 10 >= micros.get("total")) {
                figure("jit_pct_" + role, percent);
            }
        }
        return this;
    }

    Result figure(String key, Object value) {
        figures.put(key, value);
        return this;
    }

    /** One thing that arrived: what, when it was due and when it came. */
    record Arrival(String id, long dueMillis, long arrivedMillis) {}
}
