package com.meetingreminders.meeting;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.Database;
import com.meetingreminders.support.JsonText;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.Problems;
import com.meetingreminders.support.RawHttp;
import com.meetingreminders.support.Replica;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Generated JSON and strings ({@link HostileJson}) thrown at every write and list endpoint of the packaged service:
 * no answer is a 5xx, every refusal is problem+json, and a refused request changes nothing stored. jqwik is a JUnit
 * Platform engine of its own, outside {@code @QuarkusTest}'s Jupiter extension, so the property drives a replica it
 * starts itself, once for all tries, with a database and key prefix of its own.
 */
class HostileInputPropertiesIT {

    private static final OwnDatabase DATABASE = new OwnDatabase();
    private static final OwnKeyPrefix KEYS = new OwnKeyPrefix();
    private static Replica replica;
    private static String meetingId;
    /** One connection for all tries: a connection a query would cost more than the request under test. */
    private static Connection connection;

    private static long meetingsBefore;
    private static String meetingBefore;

    @BeforeContainer
    static void startReplica() {
        DATABASE.create();
        replica = Replica.start(
                "hostile-input",
                Map.of("quarkus.datasource.jdbc.url", DATABASE.jdbcUrl(), "reminders.redis.key-prefix", KEYS.prefix()));
        // Through RawHttp, which carries the token: the Jupiter extension that adds it to RestAssured is not at work
        // here.
        RawHttp.Answer created = RawHttp.send(
                replica.url(""), write("POST", "/meetings", JsonText.meeting().json()));
        meetingId = JsonPath.from(created.body()).getString("id");
        try {
            connection = DriverManager.getConnection(DATABASE.jdbcUrl(), Database.USER, "");
            meetingsBefore = meetings();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        meetingBefore = stored();
    }

    @AfterContainer
    static void stopReplica() throws SQLException {
        if (connection != null) {
            connection.close();
        }
        if (replica != null) {
            replica.close();
        }
        KEYS.deleteKeys();
        DATABASE.drop();
    }

    @Property(tries = 300)
    void noRequestGetsA5xxAndNoRefusalChangesWhatIsStored(@ForAll("requests") RawHttp.Request request)
            throws SQLException {
        RawHttp.Answer answer = RawHttp.send(replica.url(""), request);
        Statistics.collect(endpoint(request), answer.status() / 100 + "xx");

        assertThat(answer.status()).as(answer.body()).isLessThan(500);
        if (answer.status() >= 400) {
            assertThat(answer.contentType()).isEqualTo(Problems.MEDIA_TYPE);
            Problems.assertNoInternals(answer.body());
            assertThat(meetings()).isEqualTo(meetingsBefore);
            assertThat(stored()).isEqualTo(meetingBefore);
        } else {
            // Accepted: what is stored now is what the next refusal must leave alone.
            meetingsBefore = meetings();
            meetingBefore = stored();
        }
    }

    @Provide
    Arbitrary<RawHttp.Request> requests() {
        return Arbitraries.oneOf(
                HostileJson.meeting().map(body -> write("POST", "/meetings", body)),
                HostileJson.value(3).map(body -> write("POST", "/meetings", body)),
                HostileJson.meeting().map(body -> write("PUT", "/meetings/" + meetingId, body)),
                HostileJson.batch().map(body -> write("POST", "/meetings/batch", body)),
                HostileJson.text().map(body -> write("POST", "/meetings", body)),
                HostileJson.query().map(query -> new RawHttp.Request("GET", "/meetings?" + query, null, null)));
    }

    private static String endpoint(RawHttp.Request request) {
        String path = request.pathAndQuery();
        return request.method() + " "
                + (path.startsWith("/meetings?")
                        ? "/meetings"
                        : path.startsWith("/meetings/batch")
                                ? path
                                : path.startsWith("/meetings/") ? "/meetings/{id}" : path);
    }

    private static RawHttp.Request write(String method, String path, String body) {
        return new RawHttp.Request(method, path, HostileInputs.JSON, body.getBytes(StandardCharsets.UTF_8));
    }

    private static long meetings() throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet count = statement.executeQuery("select count(*) from meeting")) {
            count.next();
            return count.getLong(1);
        }
    }

    /** The meeting that PUTs aim at, as stored, without the parts that change on their own (reminder states). */
    private static String stored() {
        return RawHttp.send(replica.url(""), new RawHttp.Request("GET", "/meetings/" + meetingId, null, null))
                .body()
                .replaceAll("\"reminders\":.*", "");
    }
}
