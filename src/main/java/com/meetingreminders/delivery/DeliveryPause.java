package com.meetingreminders.delivery;

import com.meetingreminders.jdbc.SqlInstants;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * The deployment-wide delivery switch, kept in PostgreSQL (table {@code delivery_pause}) so that every replica obeys
 * it. What holds the guarantee is the delivery round, which reads the switch under a share lock in its own
 * transaction ({@link DeliveryStore#open}): pausing waits for the rounds under way, and no round sends after a
 * pause has committed. The copy each replica keeps here, read every {@code reminders.admin.pause-refresh}, only spares
 * the sweeper and the event path work that a round would hand back.
 */
@ApplicationScoped
public class DeliveryPause {

    /** The switch: paused or not, and since when (null while it never changed). */
    public record State(boolean paused, Instant since) {}

    private static final String READ = "select paused, since from delivery_pause where id = 1";

    /** Keeps {@code since} when the switch is set to what it already was: pausing twice is still one pause. */
    private static final String SET = "update delivery_pause set since = case when paused = ? then since else ? end,"
            + " paused = ? where id = 1 returning paused, since";

    /**
     * Taken before the update, in the same transaction: rounds that start while a change waits then queue behind it.
     * Without it PostgreSQL lets new share lockers of the row in ahead of the waiting update, and while rounds keep
     * overlapping (a steady load, slow receivers) a pause would wait for as long as they do. Plain reads of the switch
     * are not held up.
     */
    private static final String AHEAD_OF_NEW_ROUNDS = "lock table delivery_pause in exclusive mode";

    private final DataSource dataSource;
    private final Clock clock;
    private final Sweeper sweeper;
    private volatile State known = new State(false, null);

    DeliveryPause(DataSource dataSource, Clock clock, Sweeper sweeper, MeterRegistry registry) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.sweeper = sweeper;
        Gauge.builder("reminders.delivery.paused", this, pause -> pause.known.paused() ? 1 : 0)
                .description("1 while delivery is paused for the whole deployment, as this replica last read it")
                .register(registry);
    }

    /** This replica's last reading of the switch. */
    public boolean pausedHere() {
        return known.paused();
    }

    /** The switch as the database has it now. */
    public State current() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(READ)) {
            known = read(statement);
            return known;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the delivery switch", e);
        }
    }

    /**
     * Sets the switch for every replica. Pausing answers once the delivery rounds under way have recorded their
     * outcome; from then on nothing is sent until resumed. Resuming wakes this replica's sweeper at once; the others
     * follow within {@code reminders.admin.pause-refresh}.
     */
    public State set(boolean paused) {
        State state;
        try (Connection connection = dataSource.getConnection()) {
            state = set(connection, paused);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not set the delivery switch", e);
        }
        known = state;
        Log.infof("Delivery %s for every replica", paused ? "paused" : "resumed");
        if (!paused) {
            sweeper.wake();
        }
        return state;
    }

    @Scheduled(every = "{reminders.admin.pause-refresh}", delayed = "${reminders.background.first-run-delay}")
    void refresh() {
        boolean wasPaused = known.paused();
        try {
            // Read every time, paused or not: a replica must also learn of a pause set through another one.
            boolean paused = current().paused();
            if (wasPaused && !paused) {
                sweeper.wake();
            }
        } catch (RuntimeException e) {
            // The rounds read the switch themselves; this copy may lag while the database is away.
            Log.debugf("Could not refresh the delivery switch: %s", e.getMessage());
        }
    }

    private State set(Connection connection, boolean paused) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement lock = connection.createStatement();
                PreparedStatement statement = connection.prepareStatement(SET)) {
            lock.execute(AHEAD_OF_NEW_ROUNDS);
            statement.setBoolean(1, paused);
            statement.setTimestamp(2, SqlInstants.timestamp(clock.instant()));
            statement.setBoolean(3, paused);
            State state = read(statement);
            connection.commit();
            return state;
        } catch (SQLException | RuntimeException e) {
            // Explicitly: a pool that resets auto-commit on return would otherwise commit what is left.
            try {
                connection.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    private static State read(PreparedStatement statement) throws SQLException {
        try (ResultSet result = statement.executeQuery()) {
            result.next();
            return new State(result.getBoolean(1), SqlInstants.instant(result, 2));
        }
    }
}
