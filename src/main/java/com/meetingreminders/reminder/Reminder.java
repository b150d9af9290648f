package com.meetingreminders.reminder;

import com.meetingreminders.timer.ReminderRef;
import com.meetingreminders.timer.ScheduleEntry;
import com.meetingreminders.tracing.TraceParent;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Sort;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.SequenceGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** One reminder of a meeting: one send time, its state and its delivery history. */
@Entity
public class Reminder extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "reminder_seq")
    @SequenceGenerator(name = "reminder_seq", sequenceName = "reminder_seq", allocationSize = 50)
    public Long id;

    /** The meeting this reminder is for, by id: a reminder needs nothing else of it. */
    @Column(name = "meeting_id", nullable = false, updatable = false)
    public UUID meetingId;

    public Instant sendAt;

    /** The occurrence (original start) this reminder is for; null on rows older than series, meaning the start. */
    public Instant occurrence;

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

    /** The W3C traceparent of the request that planned this send time: its delivery joins that trace. */
    public String traceParent;

    protected Reminder() {}

    Reminder(UUID meetingId, Instant occurrence, Instant sendAt, Duration remindBefore, ReminderStatus status) {
        this.meetingId = meetingId;
        this.occurrence = occurrence;
        this.sendAt = sendAt;
        this.remindBefore = remindBefore.toString();
        this.status = status;
        this.traceParent = TraceParent.ofCurrentSpan();
    }

    public ReminderRef ref() {
        return new ReminderRef(meetingId, sendAt);
    }

    public boolean isScheduled() {
        return status == ReminderStatus.SCHEDULED;
    }

    void reschedule(ReminderStatus newStatus) {
        status = newStatus;
        attempts = 0;
        lastError = null;
        deliveredAt = null;
        nextAttemptAt = null;
        // Planned again by this request: its delivery belongs to this request's trace now.
        traceParent = TraceParent.ofCurrentSpan();
    }

    /**
     * Locks the meeting's reminders before a change reads them: a change waits for a delivery under way and then sees
     * its outcome, so that it neither cancels a reminder already sent nor lets one of the old schedule go out after.
     */
    public static List<Reminder> lockForMeeting(UUID meetingId) {
        return find("meetingId", Sort.by("id"), meetingId)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list();
    }

    /** The meeting's reminders by send time. */
    public static List<Reminder> listForMeeting(UUID meetingId) {
        return list("meetingId", Sort.by("sendAt"), meetingId);
    }

    /** The reminders of these meetings by send time, each meeting's apart: one query for a page of meetings. */
    public static Map<UUID, List<Reminder>> listForMeetings(Collection<UUID> meetingIds) {
        if (meetingIds.isEmpty()) {
            return Map.of();
        }
        return Reminder.<Reminder>list("meetingId in ?1", Sort.by("sendAt"), meetingIds).stream()
                .collect(Collectors.groupingBy(reminder -> reminder.meetingId));
    }

    /**
     * Which of these reminders no send ever reached ({@code sent_to} empty): a retry sets attempts back to 0 and keeps
     * what earlier attempts reached, which a reminder planned again at the same send time must not send twice.
     */
    static Set<Long> reachedNothing(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        List<?> rows = getEntityManager()
                .createNativeQuery("select id from reminder where id in (:ids) and cardinality(sent_to) = 0")
                .setParameter("ids", ids)
                .getResultList();
        return rows.stream().map(id -> ((Number) id).longValue()).collect(Collectors.toSet());
    }

    /** How many of these recipients (as {@code sent_to} names them) earlier attempts of this reminder reached. */
    public static int reached(long id, Collection<String> recipients) {
        if (recipients.isEmpty()) {
            return 0;
        }
        Number reached = (Number) getEntityManager()
                .createNativeQuery("select count(distinct recipient) from reminder, unnest(sent_to) as recipient"
                        + " where id = :id and recipient in (:recipients)")
                .setParameter("id", id)
                .setParameter("recipients", recipients)
                .getSingleResult();
        return reached.intValue();
    }

    /**
     * A retried reminder owes no failure notice any more: if it fails again, its owner hears of that failure. The
     * notice columns are written here only (the delivery round and the notice pass use SQL of their own).
     */
    static void forgetFailureNotice(long id) {
        getEntityManager()
                .createNativeQuery("update reminder set failure_noticed_at = null, failure_notice_taken_until = null"
                        + " where id = :id")
                .setParameter("id", id)
                .executeUpdate();
    }

    /**
     * Every SCHEDULED reminder as the timers hold it, a page at a time in (sendAt, id) order, each page read in a
     * transaction of its own and handed to {@code page} after it: reconciliation arms them all. Returns how many.
     */
    public static long forEachScheduledPage(int pageSize, Consumer<List<ScheduleEntry>> page) {
        Instant afterSendAt = Instant.EPOCH;
        long afterId = 0;
        long walked = 0;
        while (true) {
            Instant fromSendAt = afterSendAt;
            long fromId = afterId;
            List<Object[]> rows = QuarkusTransaction.requiringNew().call(() -> getEntityManager()
                    .createQuery(
                            SCHEDULED_ENTRY + " where r.status = :scheduled"
                                    + " and (r.sendAt > :sendAt or (r.sendAt = :sendAt and r.id > :id))"
                                    + " order by r.sendAt, r.id",
                            Object[].class)
                    .setParameter("scheduled", ReminderStatus.SCHEDULED)
                    .setParameter("sendAt", fromSendAt)
                    .setParameter("id", fromId)
                    .setMaxResults(pageSize)
                    .getResultList());
            if (rows.isEmpty()) {
                return walked;
            }
            page.accept(entries(rows));
            walked += rows.size();
            Object[] last = rows.get(rows.size() - 1);
            afterId = (Long) last[0];
            afterSendAt = (Instant) last[2];
        }
    }

    /** Scheduled reminders that are due, by send time and retry time, oldest first, as the timers hold them. */
    public static List<ScheduleEntry> listOverdue(Instant now, int limit) {
        return entries(getEntityManager()
                .createQuery(
                        SCHEDULED_ENTRY + " where r.status = :scheduled and r.sendAt <= :now"
                                + " and (r.nextAttemptAt is null or r.nextAttemptAt <= :now)"
                                + " order by r.sendAt, r.id",
                        Object[].class)
                .setParameter("scheduled", ReminderStatus.SCHEDULED)
                .setParameter("now", now)
                .setMaxResults(limit)
                .getResultList());
    }

    /**
     * What reconciliation reads of a row: the id (the walk's position), what names the reminder in the timers, and
     * its next attempt. Projected, not loaded as entities: a full walk reads every scheduled row.
     */
    private static final String SCHEDULED_ENTRY = "select r.id, r.meetingId, r.sendAt, r.nextAttemptAt from Reminder r";

    private static List<ScheduleEntry> entries(List<Object[]> rows) {
        return rows.stream()
                .map(row -> ScheduleEntry.nextDue(new ReminderRef((UUID) row[1], (Instant) row[2]), (Instant) row[3]))
                .toList();
    }
}
