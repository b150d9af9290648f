package com.meetingreminders.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Plain JDBC on the machine's PostgreSQL, so that tests read what the service stored, in the JVM or packaged. */
public final class Database {

    public static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
    /** The test profile's database: {@code test}, or {@code MR_TEST_DATABASE} where several checkouts share a machine. */
    public static final String TEST_DATABASE = System.getenv().getOrDefault("MR_TEST_DATABASE", "test");

    public static final String USER = "postgres";

    private Database() {}

    public static long countMeetings() {
        return queryLong(TEST_DATABASE, "select count(*) from meeting");
    }

    public static long queryLong(String database, String sql) {
        return queryOne(database, sql, result -> result.getLong(1));
    }

    public static String queryString(String database, String sql) {
        return queryOne(database, sql, result -> result.getString(1));
    }

    /** A connection of the test's own, to hold locks or a transaction open while the service runs. */
    public static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(SERVER + database, USER, "");
    }

    private interface Column<T> {
        T read(ResultSet result) throws SQLException;
    }

    private static <T> T queryOne(String database, String sql, Column<T> column) {
        try (Connection connection = connect(database);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return column.read(result);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void execute(String database, String sql) {
        try (Connection connection = connect(database);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
