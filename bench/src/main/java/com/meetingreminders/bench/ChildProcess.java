package com.meetingreminders.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A process the benchmark started; each is stopped by its pid at the end, or when the benchmark itself is stopped. */
final class ChildProcess {

    static final Path LOGS = Path.of("target", "bench");

    private static final List<ChildProcess> STARTED = new CopyOnWriteArrayList<>();

    /** The names whose logs this run has begun; unlike {@link #STARTED}, never cleared. */
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcess::stopAll));
    }

    final String name;
    final long startedNanos = System.nanoTime();
    private final Process process;

    private ChildProcess(String name, Process process) {
        this.name = name;
        this.process = process;
    }

    static ChildProcess start(String name, List<String> command) {
        try {
            Files.createDirectories(LOGS);
            File log = LOGS.resolve(name + ".log").toFile();
            // A log holds one run: a process started again under its name (a replica the chaos run restarts, the
            // receiver of the cluster variant) adds to it, a later run starts it afresh.
            boolean again = !LOGGED.add(name);
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(again ? ProcessBuilder.Redirect.appendTo(log) : ProcessBuilder.Redirect.to(log))
                    .start();
            ChildProcess child = new ChildProcess(name, process);
            STARTED.add(child);
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long pid() {
        return process.pid();
    }

    /** Every process the bench has started, stopped ones included. */
    static List<ChildProcess> started() {
        return List.copyOf(STARTED);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Resident memory in bytes, from /proc. */
    long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    /** SIGTERM, then SIGKILL if it has not exited within 20 s. */
    void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL, as a crash would end it; waits until it is gone. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A redis-server of our own on the port, without persistence; returns once it accepts connections. */
    static ChildProcess redis(int port) throws InterruptedException {
        return redis("redis", port, LOGS, List.of());
    }

    /**
     * A redis-server named {@code name} on the port, without persistence, with its files in {@code dir} and the
     * {@code options} given (cluster mode, say); returns once it accepts connections.
     */
    static ChildProcess redis(String name, int port, Path dir, List<String> options) throws InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toAbsolutePath().toString()));
        command.addAll(options);
        ChildProcess redis = start(name, command);
        awaitPort(port, Duration.ofSeconds(10));
        return redis;
    }

    /** Runs a short command (redis-cli, say) to its end; returns what it printed, or fails saying so. */
    static String run(List<String> command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
            }
            return output.trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void awaitPort(int port, Duration atMost) throws InterruptedException {
        Instant giveUp = Instant.now().plus(atMost);
        while (Instant.now().isBefore(giveUp)) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        throw new IllegalStateException("nothing listens on " + port);
    }

    static void stopAll() {
        for (ChildProcess child : STARTED) {
            child.stop();
        }
        STARTED.clear();
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JVM option that records a JFR profile to target/bench/{@code name}.jfr until the process stops. */
    static String flightRecording(String name) {
        return "-XX:StartFlightRecording=settings=profile,filename="
                + LOGS.resolve(name + ".jfr").toAbsolutePath();
    }

    static String java() {
        return javaIn(System.getProperty("java.home"));
    }

    static String javaIn(String javaHome) {
        return javaHome + File.separator + "bin" + File.separator + "java";
    }
}
