package com.meetingreminders.delivery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pause under a steady load, where delivery rounds keep overlapping: it waits for the rounds under way, not for the
 * rounds that start while it waits. The rounds are played by connections of the test's own that send a round's
 * first statement, so that one can be kept open for as long as the test likes.
 */
@QuarkusTest
class PauseAmidOverlappingRoundsTest {

    private static final String OPERATOR = "Bearer " + Tokens.operator("olga");

    /** Backends of this database waiting for a lock: the service's change of the switch, or one of the test's. */
    private static final String WAITING = "select count(*) from pg_stat_activity where datname = current_database()"
            + " and wait_event_type = 'Lock' and ";

    @AfterEach
    void deliveryRuns() {
        Api.resumeDelivery();
    }

    @Test
    void aPauseIsNotOvertakenByRoundsThatStartWhileItWaits() throws SQLException {
        try (Connection underWay = round();
                Connection startingLater = round()) {
            assertThat(readSwitch(underWay)).isFalse();
            CompletableFuture<Integer> pausing =
                    CompletableFuture.supplyAsync(() -> given().header("Authorization", OPERATOR)
                            .post("/admin/delivery/pause")
                            .statusCode());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> waiting("query ~ '^(lock table|update) delivery_pause'") == 1);

            long laterPid = pid(startingLater);
            CompletableFuture<Boolean> later = CompletableFuture.supplyAsync(() -> readSwitch(startingLater));
            await().atMost(Duration.ofSeconds(10)).until(() -> later.isDone() || waiting("pid = " + laterPid) == 1);
            assertThat(later)
                    .as("a round that starts while the pause waits queues behind it")
                    .isNotDone();

            underWay.commit();
            // The later round is still open: the pause waited only for the round that was under way.
            assertThat(pausing).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(200);
            assertThat(later)
                    .as("the later round reads the pause, and sends nothing")
                    .succeedsWithin(Duration.ofSeconds(10))
                    .isEqualTo(true);
            startingLater.commit();
        }
    }

    private static Connection round() throws SQLException {
        Connection connection = Database.connect(Database.TEST_DATABASE);
        connection.setAutoCommit(false);
        return connection;
    }

    private static boolean readSwitch(Connection round) {
        // A round's own first statement: its idle bound, and the switch read under a share lock.
        try (PreparedStatement statement = round.prepareStatement(DeliveryStore.OPEN)) {
            statement.setString(1, "60000");
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getBoolean("paused");
            }
        } catch (SQLException e) {
            throw new CompletionException(e);
        }
    }

    private static long waiting(String which) {
        return Database.queryLong(Database.TEST_DATABASE, WAITING + which);
    }

    private static long pid(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("select pg_backend_pid()");
                ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getLong(1);
        }
    }
}
