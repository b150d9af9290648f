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
import java.util.function.IntFunction;

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

    /** When a failed reminder may be tried again; null before the first failure. */
    public Instant nextAttemptAt;

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

    /**
     * Counts a failed attempt. The reminder is FAILED once no attempt is left; otherwise it may be tried again after
     * the backoff for the attempts made so far.
     */
    void recordFailure(String error, int maxAttempts, Instant now, IntFunction<Duration> backoffAfter) {
        attempts++;
        lastError = error.length() > MAX_ERROR_LENGTH ? error.substring(0, MAX_ERROR_LENGTH) : error;
        if (attempts >= maxAttempts) {
            status = ReminderStatus.FAILED;
            nextAttemptAt = null;
        } else {
            nextAttemptAt = now.plus(backoffAfter.apply(attempts));
        }
    }

    /** True while a failed reminder waits for its next attempt. */
    boolean isWaitingForRetry(Instant now) {
        return nextAttemptAt != null && nextAttemptAt.isAfter(now);
    }

    void reschedule(ReminderStatus newStatus) {
        status = newStatus;
        attempts = 0;
        lastError = null;
        deliveredAt = null;
        nextAttemptAt = null;
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
                        "select r.id, r.meeting.id, r.sendAt, r.nextAttemptAt from Reminder r where r.status = :scheduled"
                                + " and (r.sendAt > :sendAt or (r.sendAt = :sendAt and r.id > :id))"
                                + " order by r.sendAt, r.id",
                        Parameters.with("scheduled", ReminderStatus.SCHEDULED)
                                .and("sendAt", sendAt)
                                .and("id", id))
                .project(ScheduledRow.class)
                .page(0, limit)
                .list();
    }

    /** Scheduled reminders that are due, by send time and retry time, oldest first. */
    static List<ScheduledRow> listOverdue(Instant now, int limit) {
        return find(
                        "select r.id, r.meeting.id, r.sendAt, r.nextAttemptAt from Reminder r"
                                + " where r.status = :scheduled and r.sendAt <= :now"
                                + " and (r.nextAttemptAt is null or r.nextAttemptAt <= :now)"
                                + " order by r.sendAt, r.id",
                        Parameters.with("scheduled", ReminderStatus.SCHEDULED).and("now", now))
                .project(ScheduledRow.class)
                .page(0, limit)
                .list();
    }

    /** A scheduled reminder as reconciliation reads it: what names it and when it is next due. */
    record ScheduledRow(Long id, UUID meetingId, Instant sendAt, Instant nextAttemptAt) {
        ScheduleEntry entry() {
            Instant dueAt = nextAttemptAt != null && nextAttemptAt.isAfter(sendAt) ? nextAttemptAt : sendAt;
            return new ScheduleEntry(new ReminderRef(meetingId, sendAt), dueAt);
        }
    }
}
