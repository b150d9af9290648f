package com.meetingreminders.reminder;

import com.meetingreminders.meeting.Meeting;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** One reminder of a meeting: one send time, its state and its delivery history. */
@Entity
public class Reminder extends PanacheEntityBase {

    private static final int MAX_ERROR_LENGTH = 500;

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "reminder_seq")
    @SequenceGenerator(name = "reminder_seq", sequenceName = "reminder_seq", allocationSize = 50)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    public Meeting meeting;

    public Instant sendAt;

    /** The remindBefore item this reminder comes from, as {@link Duration#toString()} spells it. */
    public String remindBefore;

    @Enumerated(EnumType.STRING)
    public ReminderStatus status;

    /** Delivery attempts made so far, the successful one included. */
    public int attempts;

    public Instant deliveredAt;

    public String lastError;

    protected Reminder() {}

    Reminder(Meeting meeting, Instant sendAt, Duration remindBefore, ReminderStatus status) {
        this.meeting = meeting;
        this.sendAt = sendAt;
        this.remindBefore = remindBefore.toString();
        this.status = status;
    }

    public ReminderRef ref() {
        return new ReminderRef(meeting.id, sendAt);
    }

    public boolean isScheduled() {
        return status == ReminderStatus.SCHEDULED;
    }

    void markDelivered(Instant at) {
        attempts++;
        status = ReminderStatus.DELIVERED;
        deliveredAt = at;
    }

    /** Counts a failed attempt; the reminder is FAILED once no attempt is left. */
    void recordFailure(String error, int maxAttempts) {
        attempts++;
        lastError = error.length() > MAX_ERROR_LENGTH ? error.substring(0, MAX_ERROR_LENGTH) : error;
        if (attempts >= maxAttempts) {
            status = ReminderStatus.FAILED;
        }
    }

    void reschedule(ReminderStatus newStatus) {
        status = newStatus;
        attempts = 0;
        lastError = null;
        deliveredAt = null;
    }

    /**
     * The reminders these references name, each row locked to the end of the transaction, in id order so that
     * transactions locking several never deadlock. A reference without a reminder is missing from the answer.
     */
    static List<Reminder> lockByRefs(Collection<ReminderRef> refs) {
        List<UUID> meetingIds =
                refs.stream().map(ReminderRef::meetingId).distinct().toList();
        List<Instant> sendTimes =
                refs.stream().map(ReminderRef::sendAt).distinct().toList();
        // The caller matches the pairs again: this may also lock a meeting's other reminder at one of the instants,
        // which is harmless.
        return find(
                        "meeting.id in :meetings and sendAt in :times",
                        Sort.by("id"),
                        Parameters.with("meetings", meetingIds).and("times", sendTimes))
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list();
    }

    /**
     * Locks the meeting's reminders before a change reads them: a change waits for a delivery under way and then sees
     * its outcome, so that it neither cancels a reminder already sent nor lets one of the old schedule go out after.
     */
    static List<Reminder> lockForMeeting(UUID meetingId) {
        return find("meeting.id", Sort.by("id"), meetingId)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list();
    }

    /** Scheduled reminders after the given position in (sendAt, id) order: reconciliation pages through them all. */
    static List<ScheduledRow> listScheduledAfter(Instant sendAt, long id, int limit) {
        return find(
                        "select r.id, r.meeting.id, r.sendAt from Reminder r where r.status = :scheduled"
                                + " and (r.sendAt > :sendAt or (r.sendAt = :sendAt and r.id > :id))"
                                + " order by r.sendAt, r.id",
                        Parameters.with("scheduled", ReminderStatus.SCHEDULED)
                                .and("sendAt", sendAt)
                                .and("id", id))
                .project(ScheduledRow.class)
                .page(0, limit)
                .list();
    }

    /** Scheduled reminders whose send time has passed, oldest first. */
    static List<ScheduledRow> listOverdue(Instant now, int limit) {
        return find(
                        "select r.id, r.meeting.id, r.sendAt from Reminder r"
                                + " where r.status = :scheduled and r.sendAt <= :now order by r.sendAt, r.id",
                        Parameters.with("scheduled", ReminderStatus.SCHEDULED).and("now", now))
                .project(ScheduledRow.class)
                .page(0, limit)
                .list();
    }

    /** A scheduled reminder as reconciliation reads it: just what names it. */
    record ScheduledRow(Long id, UUID meetingId, Instant sendAt) {
        ReminderRef ref() {
            return new ReminderRef(meetingId, sendAt);
        }
    }
}
