package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Figures;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.PostgresServer;
import com.meetingreminders.support.TestServers;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PostgreSQL of the test's own, unreachable for a few seconds while reminders fall due. */
@QuarkusTest
@QuarkusTestResource(value = TestServers.OwnPostgres.class, restrictToAnnotatedClass = true)
class DatabaseOutageTest {

    @TestServers.Injected
    PostgresServer database;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void answers503WhileTheDatabaseIsDownAndDeliversDueRemindersOnceItIsBack() throws SQLException {
        String path = "/database-outage";
        // The creations and the refusals while the database is down, both measured, come before the send time.
        Duration refusals = LeadTime.toRepeat("Refused requests", () -> IntStream.range(0, 3)
                .forEach(i -> given().get("/meetings/" + java.util.UUID.randomUUID())));
        Instant sendAt = LeadTime.fromNow(LeadTime.toCreate(10, receiver)).plus(refusals);
        List<String> ids = IntStream.range(0, 10)
                .mapToObj(i -> Api.create(meeting()
                                .startsAt(sendAt.plusMillis(100L * i).plusSeconds(1))
                                .remindBefore("PT1S")
                                .webhookUrl(receiver.url(path)))
                        .getString("id"))
                .toList();

        database.stop();
        String answer = given().contentType(ContentType.JSON)
                .body(meeting().toMap())
                .post("/meetings")
                .then()
                .statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "1")
                .body("status", equalTo(503))
                .extract()
                .asString();
        assertThat(answer).doesNotContain("Exception", "SQL", "jdbc", "postgres", "127.0.0.1");
        given().get("/meetings/" + ids.get(0)).then().statusCode(503).contentType("application/problem+json");
        given().get("/q/health/ready").then().statusCode(503);
        LeadTime.requireBefore(sendAt);
        // The outage must span the send times: the reminders fall due while the database is away.
        Moments.waitUntil(sendAt.plusSeconds(2));
        database.startAgain();

        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.on(path).size() >= ids.size());
        Figures figures = Figures.of(ids.size(), receiver.on(path)).print("Database unreachable");
        assertThat(figures.delivered()).isEqualTo(ids.size());
        assertThat(figures.duplicates()).isZero();
        Set<String> received = new HashSet<>(
                receiver.on(path).stream().map(Received::deliveryId).toList());
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveredInDatabase().size() == ids.size());
        assertThat(received).containsAll(deliveredInDatabase());
        given().get("/q/health/ready").then().statusCode(200);
    }

    /** The deliveryIds the database records as DELIVERED. */
    private Set<String> deliveredInDatabase() throws SQLException {
        Set<String> delivered = new HashSet<>();
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), "postgres", "");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "select meeting_id || ':' || (extract(epoch from send_at) * 1000)::bigint"
                                + " from reminder where status = 'DELIVERED'")) {
            while (rows.next()) {
                delivered.add(rows.getString(1));
            }
        }
        return delivered;
    }
}
