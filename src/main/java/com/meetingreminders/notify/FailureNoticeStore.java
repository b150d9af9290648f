package com.meetingreminders.notify;

import com.meetingreminders.jdbc.SqlInstants;
import com.meetingreminders.timer.ReminderRef;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The failure notices still owed, in plain SQL on the caller's transaction. A notice is owed while its reminder is
 * FAILED and {@code failure_noticed_at} is null; taking one leases it (one conditional update: zero rows means another
 * replica has it), so that two replicas never send it at once and one that died leaves it to another.
 */
@ApplicationScoped
class FailureNoticeStore {

    /** Leases the owed notices the condition picks and returns what sending them needs. */
    private static final String TAKE = "update reminder r set failure_notice_taken_until = ?"
            + " from meeting m"
            + " where m.id = r.meeting_id and r.status = 'FAILED' and r.failure_noticed_at is null"
            + " and (r.failure_notice_taken_until is null or r.failure_notice_taken_until < ?) and ";

    private static final String RETURNING = " returning r.id, r.meeting_id, r.send_at, r.remind_before, r.attempts,"
            + " r.last_error, m.title, m.starts_at, m.time_zone, m.attendees, m.owner, m.failure_webhook_url,"
            + " coalesce(r.occurrence, m.starts_at) as occurrence";

    private static final String TAKE_THESE = TAKE + "r.id = any(?)" + RETURNING;

    /** Rows another replica is leasing right now are skipped, not waited for. */
    private static final String TAKE_ANY_OWED = TAKE
            + "r.id in (select id from reminder where status = 'FAILED' and failure_noticed_at is null"
            + " and (failure_notice_taken_until is null or failure_notice_taken_until < ?)"
            + " order by id limit ? for update skip locked)" + RETURNING;

    private static final String NOTICED = "update reminder set failure_noticed_at = ? where id = any(?)";

    private final DataSource dataSource;

    FailureNoticeStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Leases the notices of these reminders that are still owed and not leased by another replica. */
    List<OwedNotice> take(Collection<Long> reminderIds, Instant now, Instant leasedUntil) {
        return take(
                TAKE_THESE,
                (connection, statement) -> {
                    statement.setArray(3, connection.createArrayOf("bigint", reminderIds.toArray()));
                },
                now,
                leasedUntil);
    }

    /** Leases up to {@code limit} notices still owed, whoever's they were: those of replicas that died. */
    List<OwedNotice> takeOwed(int limit, Instant now, Instant leasedUntil) {
        return take(
                TAKE_ANY_OWED,
                (connection, statement) -> {
                    statement.setTimestamp(3, SqlInstants.timestamp(now));
                    statement.setInt(4, limit);
                },
                now,
                leasedUntil);
    }

    /** These notices went out, or were tried once: they are owed no more. */
    void noticed(Collection<Long> reminderIds, Instant at) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(NOTICED)) {
            statement.setTimestamp(1, SqlInstants.timestamp(at));
            statement.setArray(2, connection.createArrayOf("bigint", reminderIds.toArray()));
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not record that failure notices were sent", e);
        }
    }

    private interface Condition {
        void bind(Connection connection, PreparedStatement statement) throws SQLException;
    }

    private List<OwedNotice> take(String sql, Condition condition, Instant now, Instant leasedUntil) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setTimestamp(1, SqlInstants.timestamp(leasedUntil));
            statement.setTimestamp(2, SqlInstants.timestamp(now));
            condition.bind(connection, statement);
            List<OwedNotice> owed = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    owed.add(read(result));
                }
            }
            return owed;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not take the failure notices owed", e);
        }
    }

    /** One row of {@link #RETURNING}, read by column name: a column renamed or gone fails here, and in its test. */
    private static OwedNotice read(ResultSet row) throws SQLException {
        ReminderRef ref = new ReminderRef(row.getObject("meeting_id", UUID.class), SqlInstants.instant(row, "send_at"));
        String remindBefore = row.getString("remind_before");
        Notification notification = new Notification(
                ref.id(),
                ref.meetingId(),
                row.getString("title"),
                Notification.occurrenceStart(ref.sendAt(), remindBefore, SqlInstants.instant(row, "starts_at")),
                SqlInstants.instant(row, "occurrence"),
                ref.sendAt(),
                remindBefore,
                row.getString("time_zone"),
                strings(row.getArray("attendees")));
        return new OwedNotice(
                row.getLong("id"),
                row.getString("owner"),
                Optional.ofNullable(row.getString("failure_webhook_url")),
                new FailureNotice(notification, row.getInt("attempts"), row.getString("last_error")));
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
