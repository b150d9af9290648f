package com.meetingreminders.meeting;

import com.meetingreminders.jdbc.SqlInstants;
import com.meetingreminders.reminder.NewReminderRows;
import com.meetingreminders.reminder.Reminder;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Writes meetings created in this transaction, their moved occurrences and their reminders, in one JDBC batch for each
 * table on the transaction's connection. A create writes rows that no one has read: Hibernate's persist and flush
 * (entity entries, dirty checks, collection wrappers) cost more of its CPU than the inserts themselves (measured with
 * JFR), and bought nothing here. Changes and deletes of meetings stay with Hibernate.
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

    NewMeetingRows(DataSource dataSource, NewReminderRows reminders) {
        this.dataSource = dataSource;
        this.reminders = reminders;
    }

    /** Inserts the meetings as they are now, each meeting before its reminders. */
    void insert(List<Meeting> meetings, List<Reminder> theirReminders) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement meetingRows = connection.prepareStatement(MEETING);
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
