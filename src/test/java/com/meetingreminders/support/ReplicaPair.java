package com.meetingreminders.support;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Two packaged replicas, started side by side on one database and one key prefix, and stopped together. */
public record ReplicaPair(Replica a, Replica b) implements AutoCloseable {

    /** Signs what goes to the deployment's default target, as a deployment would. */
    private static final String DEPLOYMENT_SECRET = "whsec_3Cj7Jb2P0BBLz/TeR460GJVNceP1WtVUfE4tLFD+GJQ=";

    /** Starts both at once: a replica's start takes seconds, and nothing in one waits for the other. */
    public static ReplicaPair start(OwnDatabase database, String keyPrefix) {
        Map<String, String> settings = Map.of(
                "quarkus.datasource.jdbc.url",
                database.jdbcUrl(),
                "reminders.redis.key-prefix",
                keyPrefix,
                "reminders.webhook.secret",
                DEPLOYMENT_SECRET);
        CompletableFuture<Replica> startingA = CompletableFuture.supplyAsync(() -> Replica.start("a", settings));
        CompletableFuture<Replica> startingB = CompletableFuture.supplyAsync(() -> Replica.start("b", settings));
        return new ReplicaPair(startingA.join(), startingB.join());
    }

    /** The replica for the i-th of many calls: they alternate, so that both take their share. */
    public Replica inTurn(int i) {
        return i % 2 == 0 ? a : b;
    }

    @Override
    public void close() {
        try (Replica first = a;
                Replica second = b) {
            // Both closed, the second even when closing the first fails.
        }
    }
}
