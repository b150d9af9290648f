package com.meetingreminders.delivery;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * A delivery round's own transaction on one JDBC connection, not bound to a thread: a worker opens it and locks the
 * round's rows, no thread holds it while the notifications are out, and a worker records the outcomes and commits
 * it. PostgreSQL ends it if it stays idle longer than {@link DeliveryTimeouts#transaction()}, so that its row locks
 * can never outlive a round that went astray. Closed without a commit, it rolls back.
 */
final class RoundTransaction implements AutoCloseable {

    private final Connection connection;
    private boolean committed;

    private RoundTransaction(Connection connection) {
        this.connection = connection;
    }

    static RoundTransaction begin(DataSource dataSource, Duration longest) {
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute("set local idle_in_transaction_session_timeout = " + longest.toMillis());
            }
            return new RoundTransaction(connection);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new IllegalStateException("Could not open the transaction of a delivery round", e);
        }
    }

    Connection connection() {
        return connection;
    }

    void commit() {
        try {
            connection.commit();
            committed = true;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not commit the outcome of a delivery round", e);
        }
    }

    @Override
    public void close() {
        try {
            if (!committed) {
                // Explicitly: a pool that resets auto-commit on return would otherwise commit what is left.
                connection.rollback();
            }
        } catch (SQLException e) {
            // The connection is broken; the pool discards it, and the database has let go of the locks.
        } finally {
            closeQuietly(connection);
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // Nothing to do: the pool discards a connection it cannot close.
            }
        }
    }
}
