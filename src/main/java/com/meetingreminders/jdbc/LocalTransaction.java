package com.meetingreminders.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A transaction on one pooled JDBC connection, outside JTA and not bound to a thread. Where the work is a few
 * statements on one database, JTA's coordination (and the Hibernate session it brings) costs more than the work: a
 * delivery round and a create commit this way. Closed without a commit, it rolls back.
 */
public final class LocalTransaction implements AutoCloseable {

    private final Connection connection;
    private boolean committed;

    private LocalTransaction(Connection connection) {
        this.connection = connection;
    }

    public static LocalTransaction begin(DataSource dataSource) {
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(false);
            return new LocalTransaction(connection);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new IllegalStateException("Could not open a transaction", e);
        }
    }

    public Connection connection() {
        return connection;
    }

    public void commit() {
        try {
            connection.commit();
            committed = true;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not commit", e);
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
