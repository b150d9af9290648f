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

/**
 * A PostgreSQL server of the test's own ({@code initdb}, {@code pg_ctl}) on a free loopback port, with trust
 * authentication, run as the {@code postgres} user since PostgreSQL refuses to run as root.
 */
public final class PostgresServer implements AutoCloseable {

    private final int port;
    private final Path dataDir;
    private final String bin;

    private PostgresServer(int port, Path dataDir, String bin) {
        this.port = port;
        this.dataDir = dataDir;
        this.bin = bin;
    }

    public static PostgresServer start() {
        try {
            Path dataDir = Files.createTempDirectory("pg-test");
            PostgresServer server = new PostgresServer(Replica.freePort(), dataDir.resolve("data"), findBin());
            execute(List.of("chown", "-R", "postgres", dataDir.toString()));
            server.run(
                    server.bin + "/initdb",
                    "-D",
                    server.dataDir.toString(),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "--no-sync");
            server.startAgain();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /** Starts the server (again); its data is kept. */
    public void startAgain() {
        run(
                bin + "/pg_ctl",
                "-D",
                dataDir.toString(),
                "-l",
                dataDir.resolve("server.log").toString(),
                "-w",
                "-o",
                "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=" + dataDir + " -c fsync=off",
                "start");
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(this::accepts);
    }

    /** Stops the server at once (pg_ctl -m immediate): open connections break, as when the database host goes away. */
    public void stop() {
        run(bin + "/pg_ctl", "-D", dataDir.toString(), "-m", "immediate", "-w", "stop");
    }

    private boolean accepts() {
        try {
            Process ready = new ProcessBuilder(bin + "/pg_isready", "-h", "127.0.0.1", "-p", Integer.toString(port))
                    .redirectErrorStream(true)
                    .start();
            ready.getInputStream().readAllBytes();
            return ready.waitFor(10, TimeUnit.SECONDS) && ready.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        if (accepts()) {
            stop();
        }
        execute(List.of("rm", "-rf", dataDir.getParent().toString()));
    }

    private void run(String... command) {
        List<String> line = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        line.addAll(List.of(command));
        execute(line);
    }

    private static void execute(List<String> command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String findBin() {
        File[] versions = new File("/usr/lib/postgresql").listFiles();
        if (versions == null || versions.length == 0) {
            throw new IllegalStateException("No PostgreSQL under /usr/lib/postgresql");
        }
        return versions[0].getPath() + "/bin";
    }
}
