package com.meetingreminders.admin;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.config.ReplicaName;
import com.meetingreminders.jdbc.SqlInstants;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Each replica's health as the cluster sees it: every replica records, each {@code reminders.admin.heartbeat}, that it
 * is alive and whether its own readiness is UP (table {@code replica}). A replica that stopped recording is shown not
 * ready after three heartbeats, and left out after an hour.
 */
@ApplicationScoped
public class Replicas {

    /** One replica as GET /admin/delivery shows it. */
    public record Seen(String id, boolean ready, Instant lastSeen) {}

    private static final Duration FORGOTTEN_AFTER = Duration.ofHours(1);

    private static final String RECORD = "insert into replica (id, ready, last_seen) values (?, ?, ?)"
            + " on conflict (id) do update set ready = excluded.ready, last_seen = excluded.last_seen";

    private static final String LIST = "select id, ready, last_seen from replica where last_seen > ? order by id";

    private static final String FORGET = "delete from replica where last_seen <= ?";

    private final String self = ReplicaName.self();

    private final DataSource dataSource;
    private final SmallRyeHealthReporter health;
    private final Clock clock;
    private final Duration heartbeat;

    Replicas(DataSource dataSource, SmallRyeHealthReporter health, Clock clock, RemindersConfig config) {
        this.dataSource = dataSource;
        this.health = health;
        this.clock = clock;
        this.heartbeat = config.admin().heartbeat();
    }

    @Scheduled(every = "{reminders.admin.heartbeat}", delayed = "${reminders.background.first-run-delay}")
    void beat() {
        boolean ready = !health.getReadiness().isDown();
        Instant now = clock.instant();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement record = connection.prepareStatement(RECORD);
                PreparedStatement forget = connection.prepareStatement(FORGET)) {
            record.setString(1, self);
            record.setBoolean(2, ready);
            record.setTimestamp(3, SqlInstants.timestamp(now));
            record.executeUpdate();
            forget.setTimestamp(1, SqlInstants.timestamp(now.minus(FORGOTTEN_AFTER)));
            forget.executeUpdate();
        } catch (SQLException e) {
            // The readiness check reports the database; the heartbeat resumes with it.
            Log.debugf("Could not record this replica's heartbeat: %s", e.getMessage());
        }
    }

    /** The replicas heard from within the last hour, each ready only if it said so within three heartbeats. */
    public List<Seen> list() {
        Instant now = clock.instant();
        Instant fresh = now.minus(heartbeat.multipliedBy(3));
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(LIST)) {
            statement.setTimestamp(1, SqlInstants.timestamp(now.minus(FORGOTTEN_AFTER)));
            List<Seen> seen = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    Instant lastSeen = SqlInstants.instant(result, 3);
                    seen.add(new Seen(result.getString(1), result.getBoolean(2) && lastSeen.isAfter(fresh), lastSeen));
                }
            }
            return seen;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the replicas' heartbeats", e);
        }
    }
}
