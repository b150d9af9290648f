package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.jdbc.LocalTransaction;
import com.meetingreminders.reminder.ReminderStatus;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.timer.ReminderRef;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The hot path's reads of the {@code reminder} table, held to what the API wrote: every field a delivery round reads
 * is checked, so a column renamed, dropped or read into the wrong field fails here. The reminders fall due days from
 * now: no round of the running application touches them, and every transaction here rolls back.
 */
@QuarkusTest
class DeliveryStoreTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Inject
    DeliveryStore store;

    @Test
    void aRoundReadsEveryFieldOfAReminderAndItsMeetingAsTheApiWroteThem() {
        Instant startsAt = Moments.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);
        String title = "Row check " + UUID.randomUUID();
        String webhookUrl = "http://127.0.0.1:9/row-check";
        String id = given().header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
                .contentType(ContentType.JSON)
                .body(meeting()
                        .title(title)
                        .startsAt(startsAt)
                        .remindBefore("PT15M")
                        .timeZone("Europe/Berlin")
                        .attendees("ada@example.com", "grace@example.com")
                        .webhookUrl(webhookUrl)
                        .toMap())
                .post("/meetings")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        ReminderRef ref = new ReminderRef(UUID.fromString(id), startsAt.minus(Duration.ofMinutes(15)));
        long rowId = Database.queryLong(
                Database.TEST_DATABASE, "select id from reminder where meeting_id = '" + ref.meetingId() + "'");

        try (LocalTransaction transaction = store.open(Duration.ofSeconds(30)).transaction()) {
            List<DueReminder> read = store.lock(transaction, List.of(ref));

            assertThat(read).hasSize(1);
            DueReminder due = read.get(0);
            assertThat(due.id()).isEqualTo(rowId);
            assertThat(due.ref()).isEqualTo(ref);
            assertThat(due.remindBefore()).isEqualTo("PT15M");
            assertThat(due.status()).isEqualTo(ReminderStatus.SCHEDULED);
            assertThat(due.attempts()).isZero();
            assertThat(due.nextAttemptAt()).isNull();
            assertThat(due.sentTo()).isEmpty();
            assertThat(due.title()).isEqualTo(title);
            assertThat(due.startsAt()).isEqualTo(startsAt);
            assertThat(due.timeZone()).isEqualTo("Europe/Berlin");
            assertThat(due.attendees()).containsExactly("ada@example.com", "grace@example.com");
            assertThat(due.webhookUrl()).isEqualTo(webhookUrl);
            assertThat(due.owner()).isEqualTo(Tokens.ownerOf(Tokens.DEFAULT_CALLER));
            assertThat(due.traceParent()).startsWith("00-" + TRACE_ID + "-");
            assertThat(due.occurrence()).isEqualTo(startsAt);
        }
    }

    @Test
    void aFailedAttemptIsReadBackAsTheRoundRecordedIt() {
        Instant startsAt = Moments.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);
        String id =
                Api.create(meeting().startsAt(startsAt).remindBefore("PT5M")).getString("id");
        ReminderRef ref = new ReminderRef(UUID.fromString(id), startsAt.minus(Duration.ofMinutes(5)));
        Instant retryAt = startsAt.minus(Duration.ofMinutes(4));

        try (LocalTransaction transaction = store.open(Duration.ofSeconds(30)).transaction()) {
            DueReminder due = store.lock(transaction, List.of(ref)).get(0);
            store.failed(
                    transaction,
                    List.of(due.afterFailure(
                            "webhook: 503", List.of("email:ada@example.com"), 8, retryAt, made -> Duration.ZERO)));
            DueReminder after = store.lock(transaction, List.of(ref)).get(0);

            assertThat(after.attempts()).isEqualTo(1);
            assertThat(after.status()).isEqualTo(ReminderStatus.SCHEDULED);
            assertThat(after.nextAttemptAt()).isEqualTo(retryAt);
            assertThat(after.sentTo()).containsExactly("email:ada@example.com");
        }
    }

    @Test
    void aRoundsTransactionThatStaysIdlePastItsBoundIsEndedByTheDatabase() throws SQLException {
        try (LocalTransaction transaction = store.open(Duration.ofSeconds(2)).transaction()) {
            long backend;
            try (Statement statement = transaction.connection().createStatement();
                    ResultSet result = statement.executeQuery(
                            "select pg_backend_pid(), current_setting('idle_in_transaction_session_timeout')")) {
                result.next();
                backend = result.getLong(1);
                assertThat(result.getString(2)).isEqualTo("2s");
            }

            // A replica gone astray holds its round's row locks no longer than the bound: the database ends it.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Database.queryLong(
                                    Database.TEST_DATABASE,
                                    "select count(*) from pg_stat_activity where pid = " + backend)
                            == 0);
            assertThatThrownBy(() -> {
                        try (Statement statement = transaction.connection().createStatement()) {
                            statement.execute("select 1");
                        }
                    })
                    .isInstanceOf(SQLException.class);
        }
    }
}
