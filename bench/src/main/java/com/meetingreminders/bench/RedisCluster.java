package com.meetingreminders.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of the benchmark's own: three masters, {@code redis-server --cluster-enabled yes} on free loopback
 * ports without persistence, joined by {@code redis-cli --cluster create}. No replicas of Redis: the benchmark
 * measures the timers, and a replica's copying would only take CPU from the same two cores. Each node is a
 * {@link ChildProcess}, stopped by its pid.
 */
final class RedisCluster implements AutoCloseable {

    static final int MASTERS = 3;

    private final Path dir;
    private final List<Integer> ports = new ArrayList<>();
    private final List<ChildProcess> nodes = new ArrayList<>();

    private RedisCluster(Path dir) {
        this.dir = dir;
    }

    /** Starts the nodes, joins them and returns once every node says the cluster is ok. */
    static RedisCluster start() throws Exception {
        // A directory of this run's own: a node that found an old nodes.conf would think itself in an old cluster.
        Path dir = ChildProcess.LOGS.resolve("redis-cluster-" + System.currentTimeMillis());
        Files.createDirectories(dir);
        RedisCluster cluster = new RedisCluster(dir);
        try {
            for (int i = 0; i < MASTERS; i++) {
                int port = ChildProcess.freePort();
                cluster.ports.add(port);
                cluster.nodes.add(ChildProcess.redis(
                        "redis-cluster-" + port,
                        port,
                        dir,
                        List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes-" + port + ".conf")));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            cluster.ports.forEach(port -> create.add("127.0.0.1:" + port));
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            String output = ChildProcess.run(create);
            if (!output.contains("All 16384 slots covered")) {
                throw new IllegalStateException("redis-cli --cluster create did not cover every slot:\n" + output);
            }
            cluster.awaitOk(Duration.ofSeconds(30));
            return cluster;
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    private void awaitOk(Duration atMost) throws InterruptedException {
        Instant giveUp = Instant.now().plus(atMost);
        while (!ports.stream().allMatch(port -> ChildProcess.run(
                        List.of("redis-cli", "-p", Integer.toString(port), "CLUSTER", "INFO"))
                .contains("cluster_state:ok"))) {
            if (Instant.now().isAfter(giveUp)) {
                throw new IllegalStateException("The cluster did not become ok within " + atMost);
            }
            Thread.sleep(100);
        }
    }

    /** {@code redis://127.0.0.1:P} of every node, comma-separated: the service's reminders.redis.cluster-nodes. */
    String seeds() {
        return ports.stream().map(port -> "redis://127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /** Stops every node by its pid and removes the cluster's files. */
    @Override
    public void close() {
        nodes.forEach(ChildProcess::stop);
        File[] files = dir.toFile().listFiles();
        if (files != null) {
            for (File file : files) {
                try {
                    Files.deleteIfExists(file.toPath());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        dir.toFile().delete();
    }
}
