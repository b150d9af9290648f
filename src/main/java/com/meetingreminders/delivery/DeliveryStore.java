package com.meetingreminders.delivery;

import com.meetingreminders.jdbc.LocalTransaction;
import com.meetingreminders.jdbc.SqlInstants;
import com.meetingreminders.notify.Notification;
import com.meetingreminders.reminder.ReminderStatus;
import com.meetingreminders.timer.ReminderRef;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The rows a delivery round reads and writes, in plain SQL on the transaction's connection. A round takes up to a
 * hundred reminders at once; through Hibernate, two queries (rebuilt for every list size), the entities and their
 * flush cost more of a replica's CPU than the sends (measured with JFR), so this one path does without.
 */
@ApplicationScoped
class DeliveryStore {

    /**
     * The batch's reminders with their meetings, each reminder row locked to the end of the transaction in id order
     * (rounds and changes lock reminders in that order, so they never deadlock), the meeting rows only read.
     */
    private static final String LOCK = "select r.id, r.meeting_id, r.send_at, r.remind_before, r.status, r.attempts,"
            + " r.next_attempt_at, r.sent_to, m.title, m.starts_at, m.time_zone, m.attendees, m.webhook_url, m.owner,"
            + " r.trace_parent, coalesce(r.occurrence, m.starts_at) as occurrence"
            + " from reminder r"
            + " join unnest(?::uuid[], ?::timestamptz[]) as wanted(meeting_id, send_at)"
            + " on r.meeting_id = wanted.meeting_id and r.send_at = wanted.send_at"
            + " join meeting m on m.id = r.meeting_id"
            + " order by r.id"
            + " for no key update of r";

    /**
     * A round's first statement, one round trip: it bounds the transaction's idle time (the database ends a round's
     * transaction that stays idle longer, so its row locks never outlive a replica gone astray) and reads the delivery
     * switch, share-locked to the end of the round: rounds do not wait for each other, and a pause (an update of the
     * row) waits for every round under way to end, so none sends after the pause has committed. Package-private: a
     * test plays rounds with it on connections of its own.
     */
    static final String OPEN = "select set_config('idle_in_transaction_session_timeout', ?, true),"
            + " (select paused from delivery_pause where id = 1 for share) as paused";

    private static final String DELIVERED = "update reminder set status = 'DELIVERED', attempts = attempts + 1,"
            + " delivered_at = ?, next_attempt_at = null where id = any(?)";

    private static final String SKIPPED = "update reminder set status = 'SKIPPED' where id = any(?)";

    private static final String FAILED = "update reminder set attempts = ?, last_error = ?, status = ?,"
            + " next_attempt_at = ?, sent_to = ? where id = ?";

    private final DataSource dataSource;

    DeliveryStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A round's transaction, and whether delivery was paused when it began. */
    record OpenRound(LocalTransaction transaction, boolean paused) {}

    /**
     * Opens a round's transaction, which the database ends if it stays idle longer than {@code longest}, and reads
     * the delivery switch in it. The transaction is bound to no thread: a worker opens it and locks the round's rows,
     * no thread holds it while the notifications are out, and a worker records the outcomes and commits it.
     */
    OpenRound open(Duration longest) {
        LocalTransaction transaction = LocalTransaction.begin(dataSource);
        try (PreparedStatement statement = transaction.connection().prepareStatement(OPEN)) {
            statement.setString(1, Long.toString(longest.toMillis()));
            try (ResultSet result = statement.executeQuery()) {
                return new OpenRound(transaction, result.next() && result.getBoolean("paused"));
            }
        } catch (SQLException | RuntimeException e) {
            // The caller never gets the transaction: it is closed here, or its connection would stay out of the pool.
            transaction.close();
            throw new IllegalStateException("Could not open a delivery round", e);
        }
    }

    List<DueReminder> lock(LocalTransaction transaction, Collection<ReminderRef> refs) {
        Connection connection = transaction.connection();
        try (PreparedStatement statement = connection.prepareStatement(LOCK)) {
            statement.setArray(
                    1,
                    connection.createArrayOf(
                            "uuid", refs.stream().map(ReminderRef::meetingId).toArray()));
            statement.setArray(2, SqlInstants.array(connection, refs.stream().map(ReminderRef::sendAt)));
            List<DueReminder> rows = new ArrayList<>(refs.size());
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(due(result));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the reminders of a delivery round", e);
        }
    }

    /** One row of {@link #LOCK}, read by column name: a column renamed or gone fails here, and in its test. */
    private static DueReminder due(ResultSet row) throws SQLException {
        Instant sendAt = SqlInstants.instant(row, "send_at");
        String remindBefore = row.getString("remind_before");
        return new DueReminder(
                row.getLong("id"),
                new ReminderRef(row.getObject("meeting_id", UUID.class), sendAt),
                remindBefore,
                ReminderStatus.valueOf(row.getString("status")),
                row.getInt("attempts"),
                SqlInstants.instant(row, "next_attempt_at"),
                strings(row.getArray("sent_to")),
                row.getString("title"),
                Notification.occurrenceStart(sendAt, remindBefore, SqlInstants.instant(row, "starts_at")),
                row.getString("time_zone"),
                strings(row.getArray("attendees")),
                row.getString("webhook_url"),
                row.getString("owner"),
                row.getString("trace_parent"),
                SqlInstants.instant(row, "occurrence"));
    }

    void delivered(LocalTransaction transaction, Collection<Long> ids, Instant at) {
        if (!ids.isEmpty()) {
            write(transaction, DELIVERED, statement -> {
                statement.setTimestamp(1, SqlInstants.timestamp(at));
                statement.setArray(2, statement.getConnection().createArrayOf("bigint", ids.toArray()));
                statement.executeUpdate();
            });
        }
    }

    void skipped(LocalTransaction transaction, Collection<Long> ids) {
        if (!ids.isEmpty()) {
            write(transaction, SKIPPED, statement -> {
                statement.setArray(1, statement.getConnection().createArrayOf("bigint", ids.toArray()));
                statement.executeUpdate();
            });
        }
    }

    void failed(LocalTransaction transaction, Collection<DueReminder.Failure> failures) {
        if (failures.isEmpty()) {
            return;
        }
        write(transaction, FAILED, statement -> {
            for (DueReminder.Failure failure : failures) {
                statement.setInt(1, failure.attempts());
                statement.setString(2, failure.error());
                statement.setString(3, failure.status().name());
                statement.setTimestamp(4, SqlInstants.timestamp(failure.nextAttemptAt()));
                statement.setArray(
                        5,
                        statement
                                .getConnection()
                                .createArrayOf("varchar", failure.sentTo().toArray()));
                statement.setLong(6, failure.id());
                statement.addBatch();
            }
            statement.executeBatch();
        });
    }

    private interface Write {
        void run(PreparedStatement statement) throws SQLException;
    }

    private static void write(LocalTransaction transaction, String sql, Write write) {
        try (PreparedStatement statement = transaction.connection().prepareStatement(sql)) {
            write.run(statement);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not record the outcome of a delivery round", e);
        }
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
