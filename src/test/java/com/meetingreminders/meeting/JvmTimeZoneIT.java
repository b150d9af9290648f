package com.meetingreminders.meeting;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.Replica;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A replica whose JVM runs in a zone with daylight saving time, as a host left in its local zone would: every instant
 * it is given is stored as that instant, even in the hour that repeats when the clocks go back.
 */
class JvmTimeZoneIT {

    /** New York's clocks go back at 06:00Z that day: 01:30 local is 05:30Z, and again 06:30Z. */
    private static final Instant IN_THE_REPEATED_HOUR = Instant.parse("2027-11-07T05:30:00Z");

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    @Test
    void aReplicaInNewYorkKeepsACancelledOccurrenceInTheHourThatRepeats() {
        try (Replica replica = Replica.start(
                "new-york",
                Map.of(
                        "user.timezone", "America/New_York",
                        "quarkus.datasource.jdbc.url", database.jdbcUrl(),
                        "reminders.redis.key-prefix", keys.prefix()))) {
            String id = replica.create(meeting()
                    .startsAt(IN_THE_REPEATED_HOUR.minus(Duration.ofDays(1)))
                    .with("recurrence", "FREQ=DAILY")
                    .with("cancelledOccurrences", List.of(IN_THE_REPEATED_HOUR.toString())));

            List<String> cancelled = given().baseUri("http://127.0.0.1")
                    .port(replica.port())
                    .get("/meetings/" + id)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("cancelledOccurrences", String.class);
            assertThat(cancelled).containsExactly(IN_THE_REPEATED_HOUR.toString());
        }
    }
}
