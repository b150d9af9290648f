package com.meetingreminders.writefloor;

import io.agroal.api.AgroalDataSource;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * POST /meetings of the write floor: the caller's token verified (by smallrye-jwt, as the service does), then one
 * meeting row and its reminder rows in the service's own tables, in one transaction. No validation beyond what
 * binding does, no limits, no idempotency, no Redis.
 */
@Path("/meetings")
@Authenticated
public class CreateMeeting {

    /** What the bench sends; the rest of the service's fields take the service's defaults. */
    public record Body(String title, Instant startsAt, List<Duration> remindBefore, String webhookUrl) {}

    private static final String MEETING = "insert into meeting (id, title, starts_at, time_zone, remind_before,"
            + " attendees, webhook_url, version, created_at, updated_at, owner) values (?, ?, ?, 'UTC', ?, '{}', ?, 0,"
            + " ?, ?, ?)";
    private static final String REMINDER = "insert into reminder (meeting_id, send_at, remind_before, status,"
            + " occurrence) values (?, ?, ?, 'SCHEDULED', ?)";

    private final AgroalDataSource database;
    private final JsonWebToken token;

    CreateMeeting(AgroalDataSource database, JsonWebToken token) {
        this.database = database;
        this.token = token;
    }

    @POST
    public Response create(Body body) throws SQLException {
        UUID id = UUID.randomUUID();
        Timestamp now = Timestamp.from(Instant.now());
        Timestamp startsAt = Timestamp.from(body.startsAt());
        try (Connection connection = database.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement meeting = connection.prepareStatement(MEETING);
                    PreparedStatement reminder = connection.prepareStatement(REMINDER)) {
                Array remindBefore = connection.createArrayOf(
                        "varchar", body.remindBefore().stream().map(Duration::toString).toArray());
                meeting.setObject(1, id);
                meeting.setString(2, body.title());
                meeting.setTimestamp(3, startsAt);
                meeting.setArray(4, remindBefore);
                meeting.setString(5, body.webhookUrl());
                meeting.setTimestamp(6, now);
                meeting.setTimestamp(7, now);
                meeting.setString(8, token.getIssuer() + "|" + token.getSubject());
                meeting.executeUpdate();
                for (Duration before : body.remindBefore()) {
                    reminder.setObject(1, id);
                    reminder.setTimestamp(2, Timestamp.from(body.startsAt().minus(before)));
                    reminder.setString(3, before.toString());
                    reminder.setTimestamp(4, startsAt);
                    reminder.addBatch();
                }
                reminder.executeBatch();
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
        return Response.status(Response.Status.CREATED).entity(Map.of("id", id)).build();
    }
}
