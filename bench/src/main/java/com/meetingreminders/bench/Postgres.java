package com.meetingreminders.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** The machine's PostgreSQL (127.0.0.1:5432, user postgres), where each run makes a database of its own. */
final class Postgres {

    private Postgres() {}

    static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/" + database, "postgres", "");
    }

    static void execute(String database, String statement) throws SQLException {
        try (Connection connection = connect(database);
                Statement sql = connection.createStatement()) {
            sql.execute(statement);
        }
    }

    static String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:5432/" + database;
    }
}
