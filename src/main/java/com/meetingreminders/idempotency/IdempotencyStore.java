package com.meetingreminders.idempotency;

import com.meetingreminders.jdbc.SqlInstants;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The idempotency_key table, in plain SQL on the connection of the transaction that creates the meetings, so that an
 * answer and what it created commit together.
 */
@ApplicationScoped
class IdempotencyStore {

    private static final String FIND_LIVE = "select request_hash, status, headers, body from idempotency_key"
            + " where owner = ? and key = ? and created_at > ?";

    private static final String COUNT_LIVE =
            "select count(*), min(created_at) from idempotency_key where owner = ? and created_at > ?";

    /** An expired row under the same key may still be there until the cleanup: the new answer takes its place. */
    private static final String SAVE = "insert into idempotency_key"
            + " (owner, key, request_hash, status, headers, body, created_at) values (?, ?, ?, ?, ?, ?, ?)"
            + " on conflict (owner, key) do update set request_hash = excluded.request_hash,"
            + " status = excluded.status, headers = excluded.headers, body = excluded.body,"
            + " created_at = excluded.created_at";

    /** A key's answer as kept, with the fingerprint of the request that got it. */
    record Entry(byte[] fingerprint, StoredAnswer answer) {}

    /** How many keys an owner holds, and since when the oldest. */
    record LiveKeys(long count, Optional<Instant> oldest) {}

    private final DataSource dataSource;

    IdempotencyStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Takes the key's transaction-scoped advisory lock without waiting: false while another transaction (on any
     * replica) holds it, that is while the first request with the key is still running.
     */
    boolean tryLock(String owner, String key) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("select pg_try_advisory_xact_lock(?)")) {
            statement.setLong(1, lockId(owner, key));
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not lock an idempotency key", e);
        }
    }

    /**
     * Takes, until the commit, the transaction-scoped advisory lock on the owner's keys, waiting for a transaction
     * that holds it: the owner's new keys are counted and kept one transaction at a time.
     */
    void lockKeysOf(String owner) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("select pg_advisory_xact_lock(?)")) {
            statement.setLong(1, keysLockId(owner));
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not lock a caller's idempotency keys", e);
        }
    }

    Optional<Entry> findLive(String owner, String key, Instant since) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(FIND_LIVE)) {
            statement.setString(1, owner);
            statement.setString(2, key);
            statement.setTimestamp(3, SqlInstants.timestamp(since));
            try (ResultSet result = statement.executeQuery()) {
                if (!result.next()) {
                    return Optional.empty();
                }
                String[] headers = (String[]) result.getArray(3).getArray();
                return Optional.of(new Entry(
                        result.getBytes(1),
                        new StoredAnswer(result.getInt(2), Arrays.asList(headers), result.getBytes(4))));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read an idempotency key", e);
        }
    }

    LiveKeys countLive(String owner, Instant since) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(COUNT_LIVE)) {
            statement.setString(1, owner);
            statement.setTimestamp(2, SqlInstants.timestamp(since));
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return new LiveKeys(result.getLong(1), Optional.ofNullable(SqlInstants.instant(result, 2)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not count idempotency keys", e);
        }
    }

    void save(String owner, String key, byte[] fingerprint, StoredAnswer answer, Instant createdAt) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(SAVE)) {
            statement.setString(1, owner);
            statement.setString(2, key);
            statement.setBytes(3, fingerprint);
            statement.setInt(4, answer.status());
            statement.setArray(
                    5, connection.createArrayOf("text", answer.headers().toArray()));
            statement.setBytes(6, answer.body());
            statement.setTimestamp(7, SqlInstants.timestamp(createdAt));
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not keep an idempotency key's answer", e);
        }
    }

    /** Deletes the answers kept since before this instant; returns how many. */
    int deleteCreatedBefore(Instant cutoff) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement =
                        connection.prepareStatement("delete from idempotency_key where created_at <= ?")) {
            statement.setTimestamp(1, SqlInstants.timestamp(cutoff));
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not delete expired idempotency keys", e);
        }
    }

    /**
     * The advisory lock of an owner's key: 64 bits of SHA-256 of both. Two keys that share it (one chance in 2^64)
     * would only make a request wait its turn as a 409.
     */
    static long lockId(String owner, String key) {
        return ByteBuffer.wrap(sha256(owner + "\n" + key)).getLong();
    }

    /** The advisory lock of all of an owner's keys; hashed apart from every key's own (a key is never empty). */
    static long keysLockId(String owner) {
        return lockId(owner, "");
    }

    static byte[] sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JDK has SHA-256", e);
        }
    }
}
