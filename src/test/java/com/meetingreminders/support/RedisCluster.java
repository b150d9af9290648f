package com.meetingreminders.support;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of the test's own: 3 masters and 3 replicas, {@code redis-server --cluster-enabled yes} processes on
 * free loopback ports without persistence, joined by {@code redis-cli --cluster create}; each node stopped by its pid.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int NODES = 6;

    private final Path dir;
    private final Map<Integer, Process> nodes = new TreeMap<>();

    private RedisCluster(Path dir) {
        this.dir = dir;
    }

    public static RedisCluster start() {
        RedisCluster cluster;
        try {
            cluster = new RedisCluster(Files.createTempDirectory("redis-cluster"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            for (int i = 0; i < NODES; i++) {
                cluster.startNode(Replica.freePort());
            }
            cluster.create();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void startNode(int port) {
        try {
            Process process = new ProcessBuilder(
                            "redis-server",
                            "--port",
                            Integer.toString(port),
                            "--bind",
                            "127.0.0.1",
                            "--cluster-enabled",
                            "yes",
                            "--cluster-config-file",
                            "nodes-" + port + ".conf",
                            // Quick failover: the test kills a master and waits for its replica to take over.
                            "--cluster-node-timeout",
                            "1000",
                            "--dir",
                            dir.toString(),
                            "--save",
                            "",
                            "--appendonly",
                            "no",
                            "--daemonize",
                            "no")
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis-" + port + ".log").toFile())
                    .start();
            nodes.put(port, process);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> cli(port, "PING").equals("PONG"));
    }

    private void create() {
        List<String> command = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        nodes.keySet().forEach(port -> command.add("127.0.0.1:" + port));
        command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        String output = RedisServer.run(command);
        if (!output.contains("[OK] All 16384 slots covered")) {
            throw new IllegalStateException("redis-cli --cluster create failed:\n" + output);
        }
        awaitHealthy();
    }

    /** Waits until every live node says {@code cluster_state:ok} and three masters serve every slot. */
    public void awaitHealthy() {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> livePorts().stream()
                                .allMatch(port -> cli(port, "CLUSTER", "INFO").contains("cluster_state:ok"))
                        && masterPorts().size() == 3);
    }

    /** Waits until another node serves the slots of {@code master}, which was killed, and the cluster is healthy. */
    public void awaitFailover(int master) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !masterPorts().contains(master));
        awaitHealthy();
    }

    /** {@code redis://127.0.0.1:P} of every node, comma-separated: the service's seed nodes. */
    public String seeds() {
        return nodes.keySet().stream().map(port -> "redis://127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /** The live masters' ports, each with the slot ranges it serves ({@code {start, end}} pairs). */
    public Map<Integer, List<int[]>> masters() {
        Map<Integer, List<int[]>> masters = new TreeMap<>();
        int anyLive = livePorts().get(0);
        for (String line : cli(anyLive, "CLUSTER", "NODES").split("\n")) {
            String[] fields = line.trim().split(" ");
            if (fields.length < 8 || !fields[2].contains("master") || fields[2].contains("fail")) {
                continue;
            }
            List<int[]> ranges = new ArrayList<>();
            for (String range : Arrays.asList(fields).subList(8, fields.length)) {
                if (range.startsWith("[")) {
                    continue;
                }
                String[] ends = range.split("-");
                int start = Integer.parseInt(ends[0]);
                ranges.add(new int[] {start, ends.length > 1 ? Integer.parseInt(ends[1]) : start});
            }
            if (!ranges.isEmpty()) {
                masters.put(
                        Integer.parseInt(fields[1].substring(fields[1].indexOf(':') + 1, fields[1].indexOf('@'))),
                        ranges);
            }
        }
        return masters;
    }

    public List<Integer> masterPorts() {
        return new ArrayList<>(masters().keySet());
    }

    /** The port of the master serving {@code slot}, in the layout {@link #masters()} read. */
    public static int masterOf(Map<Integer, List<int[]>> masters, int slot) {
        return masters.entrySet().stream()
                .filter(master -> master.getValue().stream().anyMatch(range -> range[0] <= slot && slot <= range[1]))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No master serves slot " + slot));
    }

    /** Runs {@code command} on every live master. */
    public void onEveryMaster(String... command) {
        masterPorts().forEach(port -> cli(port, command));
    }

    /** SIGKILL, by pid: the node dies at once, as a crashed server does. */
    public void kill(int port) {
        Process process = nodes.get(port);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<Integer> livePorts() {
        return nodes.entrySet().stream()
                .filter(node -> node.getValue().isAlive())
                .map(Map.Entry::getKey)
                .toList();
    }

    /** Runs a command on one node with redis-cli and returns what it printed, trimmed. */
    public String cli(int port, String... command) {
        return RedisServer.cli(port, command);
    }

    /** Stops every node by its pid and removes their directory. */
    @Override
    public void close() {
        for (Process process : nodes.values()) {
            process.destroy();
        }
        for (Process process : nodes.values()) {
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        File[] files = dir.toFile().listFiles();
        if (files != null) {
            for (File file : files) {
                file.delete();
            }
        }
        dir.toFile().delete();
    }
}
