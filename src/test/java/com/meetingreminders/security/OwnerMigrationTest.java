package com.meetingreminders.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.Database;
import com.meetingreminders.support.OwnDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * V6 on a database that holds owners of before: principal names and '' (meetings made before owners existed). They
 * become owners no token can name.
 */
class OwnerMigrationTest {

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @Test
    void oldOwnersBecomeUnclaimedNamesThatNoCallerIdCanEqual() throws SQLException {
        migrateTo("5");
        List<String> before = List.of("", "alice", "meeting-reminders-dev", "a|b%c");
        for (String owner : before) {
            insertMeeting(owner);
        }

        migrateTo("6");

        List<String> after = owners();
        assertThat(after)
                .containsExactlyInAnyOrder(
                        "unclaimed:", "unclaimed:alice", "unclaimed:meeting-reminders-dev", "unclaimed:a%7Cb%25c");
        // Every caller id holds exactly one '|' (CallerIdTest); these hold none.
        assertThat(after).noneMatch(owner -> owner.contains("|"));
        assertThat(after).doesNotContain(Caller.idOf("meeting-reminders-dev", "alice"));
    }

    private void migrateTo(String version) {
        Flyway.configure()
                .dataSource(database.jdbcUrl(), Database.USER, "")
                .locations("classpath:db/migration")
                .target(version)
                .load()
                .migrate();
    }

    private void insertMeeting(String owner) throws SQLException {
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), Database.USER, "");
                PreparedStatement insert = connection.prepareStatement("insert into meeting (id, owner, title,"
                        + " starts_at, time_zone, remind_before, attendees, version, created_at, updated_at)"
                        + " values (?, ?, 'Old', now(), 'UTC', '{PT5M}', '{}', 0, now(), now())")) {
            insert.setObject(1, UUID.randomUUID());
            insert.setString(2, owner);
            insert.executeUpdate();
        }
    }

    private List<String> owners() throws SQLException {
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), Database.USER, "");
                PreparedStatement select = connection.prepareStatement("select owner from meeting");
                ResultSet result = select.executeQuery()) {
            List<String> owners = new ArrayList<>();
            while (result.next()) {
                owners.add(result.getString(1));
            }
            return owners;
        }
    }
}
