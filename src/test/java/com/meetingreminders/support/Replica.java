package com.meetingreminders.support;

import static org.awaitility.Awaitility.await;

import com.meetingreminders.config.ReplicaName;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The packaged service ({@code java -jar target/quarkus-app/quarkus-run.jar}) as a separate process on a free port,
 * stopped by its pid. Its output goes to {@code target/replica-<name>.log}.
 */
public final class Replica implements AutoCloseable {

    // Generous: a replica starts in ~10 s on an idle machine, in over a minute on a busy one.
    private static final Duration STARTUP = Duration.ofSeconds(180);
    private static final Map<String, String> UNLIMITED = Map.of(
            "reminders.limits.requests-per-second", "100000",
            "reminders.limits.meetings-held", "10000000",
            "reminders.limits.reminders-per-minute", "10000000",
            "reminders.limits.emails-per-hour", "10000000",
            "reminders.limits.open-streams", "1000");

    private final String name;
    private final int port;
    private final Process process;

    private Replica(String name, int port, Process process) {
        this.name = name;
        this.port = port;
        this.process = process;
    }

    /** Starts a replica with these settings (config keys and values) and waits until it is ready. */
    public static Replica start(String name, Map<String, String> settings) {
        int port = freePort();
        List<String> command = new ArrayList<>();
        command.add(Jdk.tool("java"));
        command.add("-Xmx512m");
        command.add("-Dquarkus.http.port=" + port);
        // As in the test profile: tokens signed with the development key (Tokens), receivers on 127.0.0.1.
        command.add("-Dmp.jwt.verify.publickey.location=dev/jwt-public.pem");
        command.add("-Dmp.jwt.verify.issuer=" + Tokens.DEV_ISSUER);
        command.add("-Dmp.jwt.verify.audiences=" + Tokens.DEV_AUDIENCE);
        command.add("-Dreminders.webhook.allowed-hosts=127.0.0.1");
        // The tests make many requests as one caller; a test of the limits sets its own (a later -D wins).
        UNLIMITED.forEach((key, value) -> command.add("-D" + key + "=" + value));
        // The warm-up has a test of its own (DeliveryWarmUpTest), and the container test starts with it on; these
        // replicas start without it, as quickly as before, and a test may turn it on.
        command.add("-Dreminders.delivery.warm-up-sends=0");
        settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add("target/quarkus-app/quarkus-run.jar");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log(name).toFile())
                    .start();
            Replica replica = new Replica(name, port, process);
            replica.awaitReady();
            return replica;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Creates a meeting through this replica and returns its id. */
    public String create(MeetingBody body) {
        return ServiceHttp.create(port, body);
    }

    /** Creates the meetings through this replica in one batch, one transaction, and returns their ids in order. */
    public List<String> createAll(List<MeetingBody> bodies) {
        return ServiceHttp.createAll(port, bodies);
    }

    private void awaitReady() {
        ServiceHttp.awaitReady(
                "Replica " + name, port, STARTUP, process::isAlive, this::dumpThreadsAndClose, log(name));
    }

    private static Path log(String name) {
        return output(name, "log");
    }

    private static Path output(String name, String kind) {
        return Path.of("target", "replica-" + name + "." + kind);
    }

    /** Whether {@code clientName} (of Redis's CLIENT LIST) is that of one of this replica's connections. */
    public boolean ownsRedisClient(String clientName) {
        return clientName.startsWith(ReplicaName.REDIS_CLIENT_PREFIX + pid() + "@");
    }

    /**
     * A replica that never became ready leaves where its threads were in {@code target/replica-<name>.threads} before
     * it is stopped, apart from its log, whose last lines the failure shows.
     */
    private void dumpThreadsAndClose() {
        if (process.isAlive()) {
            try {
                Process dump = new ProcessBuilder(Jdk.tool("jcmd"), Long.toString(pid()), "Thread.print")
                        .redirectErrorStream(true)
                        .redirectOutput(output(name, "threads").toFile())
                        .start();
                if (!dump.waitFor(30, TimeUnit.SECONDS)) {
                    dump.destroyForcibly();
                }
            } catch (IOException e) {
                // Without the dump, the log still says what it can.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        close();
    }

    /** The local ports of the replica's connections to {@code serverPort} now (on loopback). */
    public Set<Integer> connectionPortsTo(int serverPort) {
        return ProcessSockets.localPortsOfConnectionsTo(pid(), serverPort);
    }

    /**
     * SIGSTOP: every thread of the replica stops where it is, so it sends and connects no more, while what it has sent
     * already is still on its way. Returns the local ports of its connections to {@code receiverPort}, by which the
     * receiver tells its requests from another replica's. Kill it next; if this fails, it kills the replica itself, so
     * that a stopped process is never left behind.
     */
    public Set<Integer> freeze(int receiverPort) {
        boolean frozen = false;
        try {
            // The shell's own kill: no procps needed.
            Process stop = new ProcessBuilder("sh", "-c", "kill -STOP " + pid())
                    .inheritIO()
                    .start();
            if (stop.waitFor() != 0) {
                throw new IllegalStateException("Could not stop replica " + name);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> ProcessSockets.allThreadsStopped(pid()));
            Set<Integer> ports = connectionPortsTo(receiverPort);
            frozen = true;
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            if (!frozen) {
                kill();
            }
        }
    }

    /** SIGKILL: the replica dies at once, in the middle of whatever it was doing. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
    }

    /** SIGTERM: the replica shuts down as it would on a deployment; returns how long it took to exit. */
    public Duration terminate(Duration atMost) {
        Instant asked = Instant.now();
        process.destroy();
        awaitExit(atMost);
        return Duration.between(asked, Instant.now());
    }

    private void awaitExit(Duration atMost) {
        try {
            if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("Replica " + name + " still running after " + atMost);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM, then SIGKILL if it has not exited within 30 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tools of the JDK that runs the tests. */
    private static final class Jdk {
        static String tool(String name) {
            return System.getProperty("java.home") + File.separator + "bin" + File.separator + name;
        }
    }
}
