package com.meetingreminders.meeting;

import com.meetingreminders.jdbc.LocalTransaction;
import com.meetingreminders.jdbc.SqlInstants;
import com.meetingreminders.limits.CallerUsage;
import com.meetingreminders.limits.UsageChange;
import com.meetingreminders.reminder.NewReminderRows;
import com.meetingreminders.reminder.PendingTimers;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ScheduleChange;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Stores meetings being created, their moved occurrences and their reminders, counts them toward their owner's limits,
 * and arms the reminders once that has committed. The rows go in one JDBC batch for each table, in a transaction of
 * their own on one connection. A create writes rows that no one has read: Hibernate's persist and flush (entity
 * entries, dirty checks, collection wrappers), and the JTA transaction and session around them, cost more of its CPU
 * than the inserts themselves (measured with JFR), and bought nothing here. Changes and deletes of meetings stay with
 * Hibernate.
 */
@ApplicationScoped
class NewMeetingRows {

    private static final String MEETING = "insert into meeting (id, owner, title, starts_at, time_zone, remind_before,"
            + " attendees, webhook_url, failure_webhook_url, recurrence, cancelled_occurrences, planned_until,"
            + " extend_at, version, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private static final String MOVED =
            "insert into occurrence_override (meeting_id, occurrence, starts_at) values (?, ?, ?)";

    private final DataSource dataSource;
    private final NewReminderRows reminders;
    private final CallerUsage callerUsage;
    private final PendingTimers timers;

    NewMeetingRows(DataSource dataSource, NewReminderRows reminders, CallerUsage callerUsage, PendingTimers timers) {
        this.dataSource = dataSource;
        this.reminders = reminders;
        this.callerUsage = callerUsage;
        this.timers = timers;
    }

    /**
     * Stores the meetings as they are now, each before its reminders, and charges their usage last, so that the owner's
     * counts stay locked as briefly as they can. Returns once it has committed and the reminders are armed; fails, and
     * stores nothing, if the usage goes over a limit. Inside a JTA transaction it joins that one instead, and the
     * reminders are armed after that commits.
     */
    void store(
            String owner,
            List<Meeting> meetings,
            List<Reminder> theirReminders,
            List<ScheduleChange> schedules,
            UsageChange usage) {
        if (QuarkusTransaction.isActive()) {
            // An Idempotency-Key's answer commits with the meetings, in the transaction it has open.
            try (Connection connection = dataSource.getConnection()) {
                insert(connection, meetings, theirReminders);
                callerUsage.charge(connection, owner, usage);
            } catch (SQLException e) {
                throw new IllegalStateException("Could not store the new meetings", e);
            }
            schedules.forEach(timers::add);
            return;
        }
        try (LocalTransaction transaction = LocalTransaction.begin(dataSource)) {
            insert(transaction.connection(), meetings, theirReminders);
            callerUsage.charge(transaction.connection(), owner, usage);
            transaction.commit();
        }
        timers.committed(schedules);
    }

    private void insert(Connection connection, List<Meeting> meetings, List<Reminder> theirReminders) {
        try (PreparedStatement meetingRows = connection.prepareStatement(MEETING);
                PreparedStatement movedRows = connection.prepareStatement(MOVED)) {
            boolean anyMoved = false;
            for (Meeting meeting : meetings) {
                meetingRows.setObject(1, meeting.id);
                meetingRows.setString(2, meeting.owner);
                meetingRows.setString(3, meeting.title);
                meetingRows.setTimestamp(4, SqlInstants.timestamp(meeting.startsAt));
                meetingRows.setString(5, meeting.timeZone);
                meetingRows.setArray(6, connection.createArrayOf("varchar", meeting.remindBefore.toArray()));
                meetingRows.setArray(7, connection.createArrayOf("varchar", meeting.attendees.toArray()));
                meetingRows.setString(8, meeting.webhookUrl);
                meetingRows.setString(9, meeting.failureWebhookUrl);
                meetingRows.setString(10, meeting.recurrence);
                meetingRows.setArray(11, SqlInstants.array(connection, meeting.cancelledOccurrences.stream()));
                meetingRows.setTimestamp(12, SqlInstants.timestamp(meeting.plannedUntil));
                meetingRows.setTimestamp(13, SqlInstants.timestamp(meeting.extendAt));
                meetingRows.setLong(14, meeting.version);
                meetingRows.setTimestamp(15, SqlInstants.timestamp(meeting.createdAt));
                meetingRows.setTimestamp(16, SqlInstants.timestamp(meeting.updatedAt));
                meetingRows.addBatch();
                for (Map.Entry<Instant, Instant> moved : meeting.movedOccurrences.entrySet()) {
                    movedRows.setObject(1, meeting.id);
                    movedRows.setTimestamp(2, SqlInstants.timestamp(moved.getKey()));
                    movedRows.setTimestamp(3, SqlInstants.timestamp(moved.getValue()));
                    movedRows.addBatch();
                    anyMoved = true;
                }
            }
            meetingRows.executeBatch();
            if (anyMoved) {
                movedRows.executeBatch();
            }
            reminders.insert(connection, theirReminders);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not store the new meetings", e);
        }
    }
}
