package com.meetingreminders.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What the machine's Redis is asked while this is open, as {@code redis-cli monitor} prints it: one line a command,
 * its name and arguments quoted. For what a test cannot see from outside any other way, such as a publish that reached
 * no one. Close it to stop the monitor.
 */
public final class RedisMonitor implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private RedisMonitor(Process process) {
        this.process = process;
    }

    /** Starts monitoring the machine's Redis; returns once Redis has said that it monitors. */
    public static RedisMonitor start() {
        try {
            Process process = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p", "6379", "monitor")
                    .redirectErrorStream(true)
                    .start();
            BufferedReader output =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String first = output.readLine();
            if (!"OK".equals(first)) {
                process.destroy();
                throw new IllegalStateException("redis-cli monitor answered " + first);
            }
            RedisMonitor monitor = new RedisMonitor(process);
            Thread reader = new Thread(() -> monitor.readFrom(output), "redis-monitor");
            reader.setDaemon(true);
            reader.start();
            return monitor;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void readFrom(BufferedReader output) {
        try (output) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                lines.add(line);
            }
        } catch (IOException ended) {
            // The monitor was closed.
        }
    }

    /** The commands named so (in any case) seen so far that mention {@code text} in an argument. */
    public List<String> commands(String name, String text) {
        String quotedName = "\"" + name.toLowerCase(Locale.ROOT) + "\"";
        return lines.stream()
                .filter(line -> line.toLowerCase(Locale.ROOT).contains(quotedName) && line.contains(text))
                .toList();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
