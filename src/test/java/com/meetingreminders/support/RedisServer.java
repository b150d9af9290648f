package com.meetingreminders.support;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@code redis-server} of the test's own on a free loopback port, without persistence; stopped by its pid. */
public final class RedisServer implements AutoCloseable {

    /** The port of the machine's own Redis on 127.0.0.1, which every machine of the project runs. */
    static final int MACHINE_PORT = 6379;

    private final int port;
    private final Path dir;
    private Process process;

    private RedisServer(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    public static RedisServer start() {
        try {
            RedisServer server = new RedisServer(Replica.freePort(), Files.createTempDirectory("redis-test"));
            server.startAgain();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String address() {
        return "redis://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** Starts the server again on the same port, empty, as a restart without persistence leaves it. */
    public synchronized void startAgain() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running");
        }
        try {
            process = new ProcessBuilder(
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
                            dir.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> cli("PING").equals("PONG"));
    }

    /** Stops the server by its pid (SIGTERM) and waits for it to exit; everything in it is lost. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /**
     * SIGSTOP: the server hangs rather than fails. Its connections stay open and take what clients send, and nothing
     * is answered until {@link #thaw}, when it runs what it got meanwhile.
     */
    public synchronized void freeze() {
        signal("STOP");
    }

    /** SIGCONT: the server answers again. */
    public synchronized void thaw() {
        signal("CONT");
    }

    private void signal(String name) {
        // The shell's own kill: no procps needed.
        run(List.of("sh", "-c", "kill -" + name + " " + process.pid()));
    }

    /** Runs a command with redis-cli and returns what it printed, trimmed. */
    public String cli(String... command) {
        return cli(port, command);
    }

    /** Runs a command on the machine's Redis with redis-cli and returns what it printed, trimmed. */
    public static String cliOnMachine(String... command) {
        return cli(MACHINE_PORT, command);
    }

    /** Runs a command on the local server at {@code port} with redis-cli and returns what it printed, trimmed. */
    static String cli(int port, String... command) {
        List<String> line = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        line.addAll(List.of(command));
        return run(line);
    }

    /** Runs a Redis command-line tool and returns what it printed, trimmed. */
    static String run(List<String> command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            process.waitFor(30, TimeUnit.SECONDS);
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        stop();
        File[] files = dir.toFile().listFiles();
        if (files != null) {
            for (File file : files) {
                file.delete();
            }
        }
        dir.toFile().delete();
    }
}
