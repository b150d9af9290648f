package com.meetingreminders.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * The CPU time of the processes on this machine that a scenario makes work, by role, read from /proc: a drain or a
 * p99 says how long the work took on two shared cores, this says how much work it was and whose. Roles: the
 * replicas, the receiver, the write floor, the delivery floor and BullMQ's Node worker (processes the bench started, by
 * name), the bench itself (where the load generators run), and, by command, every PostgreSQL and Redis process.
 * Other processes are left out: the machine is meant to be quiet during a run. Of each JVM it also reads the threads of
 * its JIT compilers, which tell whether a process still compiles its hot paths or runs them compiled (see
 * {@link JitWarmUp}).
 */
final class CpuTime {

    /** Clock ticks a second in /proc's figures: USER_HZ, 100 on Linux whatever the kernel's own tick. */
    private static final long TICKS_PER_SECOND = 100;

    private static final long BENCH = ProcessHandle.current().pid();

    /** Quiet: at most 30 ms of CPU in half a second, all of a role's processes together (their idle timers). */
    private static final Duration QUIET_INTERVAL = Duration.ofMillis(500);

    private static final long QUIET_TICKS = 3;

    /** Ticks of each process seen, with its role. */
    private final Map<Process, Ticks> processes;

    /**
     * One process: its pid and when it started (in ticks since boot). A pid alone is not one: the kernel hands a freed
     * pid to the next process, and two windows added up must not count a PostgreSQL backend and its successor as one.
     */
    private record Process(long pid, long startedAt) {}

    /** A process's ticks, and of them its JIT compilers' ({@code -1} where it has none: not a JVM). */
    private record Ticks(String role, long ticks, long compiling) {}

    /** What /proc/[pid]/stat (or a thread's) says of its CPU and start. */
    private record Stat(long ticks, long startedAt) {}

    private CpuTime(Map<Process, Ticks> processes) {
        this.processes = processes;
    }

    /** Waits for {@code instant}, then reads: a scenario's work counts from when its reminders fall due. */
    static CpuTime at(Instant instant) throws InterruptedException {
        long wait = Duration.between(Instant.now(), instant).toMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
        return now();
    }

    /**
     * Reads once the processes of {@code role} have gone quiet, or after {@code atMost}: a delivery round records
     * its outcomes after its last notification has arrived, and that work belongs to the scenario that caused it, not
     * to the one measured next.
     */
    static CpuTime onceQuiet(String role, Duration atMost) throws InterruptedException {
        return onceStill(reading -> reading.ticks(role), atMost);
    }

    /** Reads until {@code ticks} grows by at most {@link #QUIET_TICKS} in {@link #QUIET_INTERVAL}, or after atMost. */
    private static CpuTime onceStill(ToLongFunction<CpuTime> ticks, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        CpuTime last = now();
        while (System.nanoTime() < deadline) {
            Thread.sleep(QUIET_INTERVAL.toMillis());
            CpuTime next = now();
            if (ticks.applyAsLong(next) - ticks.applyAsLong(last) <= QUIET_TICKS) {
                return next;
            }
            last = next;
        }
        return last;
    }

    private long ticks(String role) {
        return processes.values().stream()
                .filter(process -> process.role().equals(role))
                .mapToLong(Ticks::ticks)
                .sum();
    }

    static CpuTime now() {
        Map<Long, String> started = new HashMap<>();
        ChildProcess.started().forEach(child -> started.put(child.pid(), role(child.name)));
        Map<Process, Ticks> processes = new HashMap<>();
        try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path dir : proc) {
                long pid = Long.parseLong(dir.getFileName().toString());
                String command = byCommand(dir);
                String role = pid == BENCH ? "bench" : command != null ? command : started.get(pid);
                Stat stat = role == null ? null : stat(dir);
                if (stat != null) {
                    processes.put(
                            new Process(pid, stat.startedAt()),
                            new Ticks(role, stat.ticks(), command == null ? compilingTicks(dir) : -1));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not read /proc", e);
        }
        return new CpuTime(processes);
    }

    /**
     * What each process spent since {@code before}, as a reading of its own: a process that started meanwhile counts
     * whole, one that ended meanwhile is lost (a PostgreSQL backend closed in the window, say: rare while a scenario
     * runs). Windows of one side of a run, taken in turn with the other's, add up with {@link #plus}.
     */
    CpuTime since(CpuTime before) {
        Map<Process, Ticks> spent = new HashMap<>();
        processes.forEach((process, now) -> {
            Ticks then = before.processes.get(process);
            boolean same = then != null && then.role().equals(now.role());
            long compiling = now.compiling() < 0
                    ? -1
                    // A compiler thread that the JVM let go takes its ticks with it: never count less than none.
                    : same && then.compiling() >= 0 ? Math.max(0, now.compiling() - then.compiling()) : now.compiling();
            spent.put(process, new Ticks(now.role(), same ? now.ticks() - then.ticks() : now.ticks(), compiling));
        });
        return new CpuTime(spent);
    }

    /** Two windows' spending together, each process's added up ({@link #since}). */
    CpuTime plus(CpuTime other) {
        Map<Process, Ticks> sum = new HashMap<>(processes);
        other.processes.forEach((process, ticks) -> sum.merge(
                process,
                ticks,
                (a, b) -> new Ticks(
                        a.role(),
                        a.ticks() + b.ticks(),
                        a.compiling() < 0 && b.compiling() < 0
                                ? -1
                                : Math.max(0, a.compiling()) + Math.max(0, b.compiling()))));
        return new CpuTime(sum);
    }

    /** No spending yet: what the first window of a side is added to. */
    static CpuTime none() {
        return new CpuTime(Map.of());
    }

    /**
     * Of a window's spending ({@link #since}): microseconds of CPU a unit of work ({@code units} reminders delivered,
     * creates answered) cost each role, in all ({@code total}) first.
     */
    Map<String, Long> microsEach(long units) {
        Map<String, Long> ticks = new TreeMap<>();
        processes.values().forEach(spent -> ticks.merge(spent.role(), spent.ticks(), Long::sum));
        long all = ticks.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Long> micros = new LinkedHashMap<>();
        micros.put("total", microsEach(all, units));
        ticks.forEach((role, spent) -> {
            long each = microsEach(spent, units);
            if (each > 0) {
                micros.put(role, each);
            }
        });
        return micros;
    }

    /**
     * Of a window's spending ({@link #since}): the share, in percent, of the CPU that {@code role}'s processes spent
     * that went to their JIT compilers; -1 where the role has no JVM or spent nothing.
     */
    long compilingPercent(String role) {
        long spent = 0;
        long compiling = 0;
        boolean anyJvm = false;
        for (Ticks process : processes.values()) {
            if (process.role().equals(role)) {
                spent += process.ticks();
                if (process.compiling() >= 0) {
                    anyJvm = true;
                    compiling += process.compiling();
                }
            }
        }
        return anyJvm && spent > 0 ? Math.round(100.0 * compiling / spent) : -1;
    }

    /** The roles of the JVMs read, for which {@link #compilingPercent} has a figure. */
    Set<String> jvmRoles() {
        return processes.values().stream()
                .filter(process -> process.compiling() >= 0)
                .map(Ticks::role)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static long microsEach(long ticks, long units) {
        return ticks * 1_000_000 / TICKS_PER_SECOND / Math.max(1, units);
    }

    /**
     * The processes the bench started, by name (replica-0 and cluster-replica-1 are replicas); a scenario's BullMQ
     * worker is named after it. Redis servers of the bench's own go by their command, as the machine's does.
     */
    private static String role(String name) {
        if (name.matches("(.*-)?replica-\\d+")) {
            return "replicas";
        }
        if (name.endsWith("-bullmq")) {
            return "bullmq";
        }
        return name.replaceAll("[^a-z]+", "_");
    }

    private static String byCommand(Path dir) {
        try {
            String command = Files.readString(dir.resolve("comm")).strip();
            return switch (command) {
                case "postgres" -> "postgres";
                case "redis-server" -> "redis";
                default -> null;
            };
        } catch (IOException e) {
            // Gone since the directory was listed.
            return null;
        }
    }

    /**
     * User and system time of the process's JIT compiler threads: HotSpot names them "C1 CompilerThread0", "C2 ...",
     * which the kernel cuts to 15 characters. -1 if the process has none (not a JVM) or is gone.
     */
    private static long compilingTicks(Path dir) {
        long ticks = -1;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(dir.resolve("task"))) {
            for (Path thread : threads) {
                try {
                    String name = Files.readString(thread.resolve("comm")).strip();
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        Stat stat = stat(thread);
                        ticks = Math.max(ticks, 0) + (stat == null ? 0 : stat.ticks());
                    }
                } catch (IOException e) {
                    // The thread ended since the directory was listed.
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return ticks;
    }

    /**
     * User and system time of the whole process, every thread (or of one thread), and its start; null if it is gone.
     */
    private static Stat stat(Path dir) {
        try {
            String stat = Files.readString(dir.resolve("stat"));
            // The command name, in parentheses, may hold spaces: the fields count from after it (state is the first).
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new Stat(Long.parseLong(fields[11]) + Long.parseLong(fields[12]), Long.parseLong(fields[19]));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
