package com.meetingreminders.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/**
 * Instants reach PostgreSQL and come back as the instants they are, on a JVM whose zone has an hour that happens
 * twice: 01:30 on 2027-11-07 is 05:30Z in New York, and again 06:30Z once the clocks have gone back.
 */
@ResourceLock(Resources.TIME_ZONE)
class SqlInstantsTest {

    private static final Instant FIRST_TIME = Instant.parse("2027-11-07T05:30:00Z");
    private static final Instant SECOND_TIME = FIRST_TIME.plus(Duration.ofHours(1));

    private TimeZone jvmZone;

    @BeforeEach
    void inNewYork() {
        jvmZone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
    }

    @AfterEach
    void backHome() {
        TimeZone.setDefault(jvmZone);
    }

    @Test
    void anArrayKeepsBothTimesOfTheRepeatedHour() throws SQLException {
        List<Instant> read = new ArrayList<>();
        try (Connection connection = Database.connect(Database.TEST_DATABASE);
                PreparedStatement statement = connection.prepareStatement(
                        "select at from unnest(?::timestamptz[]) with ordinality as given(at, n) order by n")) {
            statement.setArray(1, SqlInstants.array(connection, List.of(FIRST_TIME, SECOND_TIME).stream()));
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    read.add(SqlInstants.instant(result, "at"));
                }
            }
        }

        assertThat(read).containsExactly(FIRST_TIME, SECOND_TIME);
    }

    @Test
    void oneInstantAndNoneComeBackAsGiven() throws SQLException {
        try (Connection connection = Database.connect(Database.TEST_DATABASE);
                PreparedStatement statement =
                        connection.prepareStatement("select ?::timestamptz as given, ?::timestamptz as none")) {
            statement.setTimestamp(1, SqlInstants.timestamp(FIRST_TIME));
            statement.setTimestamp(2, SqlInstants.timestamp(null));
            try (ResultSet result = statement.executeQuery()) {
                result.next();

                assertThat(SqlInstants.instant(result, 1)).isEqualTo(FIRST_TIME);
                assertThat(SqlInstants.instant(result, "none")).isNull();
            }
        }
    }
}
