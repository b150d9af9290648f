package com.meetingreminders.signing;

import com.meetingreminders.jdbc.SqlInstants;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The {@code signing_secret} table in plain SQL, on the caller's transaction. Every write is one statement that is
 * safe when replicas race: a first secret is inserted only where none exists, and a rotation reads and replaces the
 * row under its lock.
 */
@ApplicationScoped
class SigningSecretStore {

    private static final String COLUMNS = "owner, secret, created_at, previous_secret, previous_expires_at";

    private static final String FIND = "select " + COLUMNS + " from signing_secret where owner = any(?)";

    /** Another replica may have made one meanwhile: then its secret stays, and ours is never used. */
    private static final String CREATE = "insert into signing_secret (owner, secret, created_at) values (?, ?, ?)"
            + " on conflict (owner) do nothing";

    /** A first rotation of a caller without a secret just makes one: there is nothing to keep signing beside it. */
    private static final String ROTATE = "insert into signing_secret as s (owner, secret, created_at) values (?, ?, ?)"
            + " on conflict (owner) do update set previous_secret = s.secret, previous_expires_at = ?,"
            + " secret = excluded.secret, created_at = excluded.created_at"
            + " returning " + COLUMNS;

    private final DataSource dataSource;

    SigningSecretStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The rows of these owners, one query for them all; owners without one are absent. */
    Map<String, StoredSecrets> find(Collection<String> owners) {
        Map<String, StoredSecrets> found = new HashMap<>();
        if (owners.isEmpty()) {
            return found;
        }
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(FIND)) {
            statement.setArray(1, connection.createArrayOf("varchar", owners.toArray()));
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    StoredSecrets row = read(result);
                    found.put(row.owner(), row);
                }
            }
            return found;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read signing secrets", e);
        }
    }

    /** Gives each of these owners a new secret unless it has one already; one batch for them all. */
    void createIfMissing(Collection<String> owners, Instant now) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(CREATE)) {
            for (String owner : owners) {
                statement.setString(1, owner);
                statement.setBytes(2, WebhookSecret.generate().key());
                statement.setTimestamp(3, SqlInstants.timestamp(now));
                statement.addBatch();
            }
            statement.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not make signing secrets", e);
        }
    }

    /** Replaces the owner's secret with a new one; the one it replaces keeps signing until {@code overlapEnds}. */
    StoredSecrets rotate(String owner, Instant now, Instant overlapEnds) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(ROTATE)) {
            statement.setString(1, owner);
            statement.setBytes(2, WebhookSecret.generate().key());
            statement.setTimestamp(3, SqlInstants.timestamp(now));
            statement.setTimestamp(4, SqlInstants.timestamp(overlapEnds));
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return read(result);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not rotate a signing secret", e);
        }
    }

    private static StoredSecrets read(ResultSet result) throws SQLException {
        byte[] previous = result.getBytes(4);
        return new StoredSecrets(
                result.getString(1),
                WebhookSecret.ofKey(result.getBytes(2)),
                SqlInstants.instant(result, 3),
                previous == null ? null : WebhookSecret.ofKey(previous),
                SqlInstants.instant(result, 5));
    }
}
