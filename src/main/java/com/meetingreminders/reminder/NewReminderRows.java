package com.meetingreminders.reminder;

import com.meetingreminders.jdbc.SqlInstants;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;

/**
 * Writes the reminders of meetings created in this transaction, in one JDBC batch on the connection that wrote their
 * meetings. Through Hibernate, persisting a group's reminders and flushing them cost more of a create's CPU than the
 * inserts themselves (measured with JFR); a new reminder needs none of what a session keeps. Ids still come from the
 * entity's own generator, so these rows and those Hibernate writes share one pool of ids from {@code reminder_seq}.
 */
@ApplicationScoped
public class NewReminderRows {

    private static final String INSERT = "insert into reminder (id, meeting_id, send_at, occurrence, remind_before,"
            + " status, attempts, trace_parent) values (?, ?, ?, ?, ?, ?, ?, ?)";

    private final SessionFactory sessions;
    private final BeforeExecutionGenerator ids;

    NewReminderRows(SessionFactory sessions) {
        this.sessions = sessions;
        this.ids = (BeforeExecutionGenerator) sessions.unwrap(SessionFactoryImplementor.class)
                .getMappingMetamodel()
                .getEntityDescriptor(Reminder.class)
                .getGenerator();
    }

    /**
     * Gives each reminder its id and inserts them on {@code connection}, in the transaction where their meetings' rows
     * are written. They are armed once it commits: see {@link PendingTimers}.
     */
    public void insert(Connection connection, List<Reminder> reminders) {
        if (reminders.isEmpty()) {
            return;
        }
        // The generator takes its values through a session; a stateless one on this connection is the least of one.
        try (StatelessSession idSession =
                        sessions.withStatelessOptions().connection(connection).openStatelessSession();
                PreparedStatement statement = connection.prepareStatement(INSERT)) {
            SharedSessionContractImplementor session = (SharedSessionContractImplementor) idSession;
            for (Reminder reminder : reminders) {
                reminder.id = (Long) ids.generate(session, reminder, null, EventType.INSERT);
                statement.setLong(1, reminder.id);
                statement.setObject(2, reminder.meetingId);
                statement.setTimestamp(3, SqlInstants.timestamp(reminder.sendAt));
                statement.setTimestamp(4, SqlInstants.timestamp(reminder.occurrence));
                statement.setString(5, reminder.remindBefore);
                statement.setString(6, reminder.status.name());
                statement.setInt(7, reminder.attempts);
                statement.setString(8, reminder.traceParent);
                statement.addBatch();
            }
            statement.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not store the new meetings' reminders", e);
        }
    }
}
