package com.meetingreminders.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * Instants to and from the PostgreSQL driver, which refuses {@code setObject(Instant)}. A single parameter goes as a
 * {@link Timestamp}, which the driver sends with the offset of the JVM's zone. An array must not: its elements go as
 * text, and a Timestamp's text is local time without an offset, which the hour that repeats when the clocks go back
 * makes ambiguous. Instants there go as ISO-8601 text in UTC, whatever the JVM's zone.
 */
public final class SqlInstants {

    private SqlInstants() {}

    /** A {@code timestamptz} parameter; null stays null. */
    public static Timestamp timestamp(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    /** A {@code timestamptz[]} parameter. */
    public static Array array(Connection connection, Stream<Instant> instants) throws SQLException {
        return connection.createArrayOf("timestamptz", instants.toArray());
    }

    /** A {@code timestamptz} column; null stays null. */
    public static Instant instant(ResultSet result, String column) throws SQLException {
        return instant(result.getTimestamp(column));
    }

    /** A {@code timestamptz} column; null stays null. */
    public static Instant instant(ResultSet result, int column) throws SQLException {
        return instant(result.getTimestamp(column));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
