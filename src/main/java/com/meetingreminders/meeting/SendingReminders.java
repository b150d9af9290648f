package com.meetingreminders.meeting;

import com.meetingreminders.reminder.ReminderStatus;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.panache.common.Page;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.List;

/**
 * Reminders sending in [from, to) with their meetings, as GET /reminders and the web page list them: of the owner's
 * meetings (every owner's when {@code owner} is null) and of one status (every status when null).
 */
final class SendingReminders {

    /** Later than any send time: a window open at its end. */
    static final Instant LATEST = Instant.parse("9999-12-31T00:00:00Z");

    private static final String FROM = " from Reminder r join Meeting m on m.id = r.meetingId where ";

    private static final String ITEM = "select new " + ReminderListItem.class.getName()
            + "(m.id, m.owner, m.title, m.startsAt, m.timeZone, r.sendAt, r.remindBefore, r.status, r.attempts,"
            + " r.lastError, r.deliveredAt)";

    private SendingReminders() {}

    /** By send time. */
    static List<ReminderListItem> list(String owner, ReminderStatus status, Instant from, Instant to, Page page) {
        return list(owner, status, from, to, page, "");
    }

    /** Newest send time first: what an operator looks at first is the latest failure. */
    static List<ReminderListItem> listNewestFirst(String owner, ReminderStatus status, Instant from, Page page) {
        return list(owner, status, from, LATEST, page, " desc");
    }

    static long count(String owner, ReminderStatus status, Instant from, Instant to) {
        return bound(
                        Panache.getEntityManager()
                                .createQuery("select count(r)" + FROM + where(owner, status), Long.class),
                        owner,
                        status,
                        from,
                        to)
                .getSingleResult();
    }

    private static List<ReminderListItem> list(
            String owner, ReminderStatus status, Instant from, Instant to, Page page, String direction) {
        String query = ITEM + FROM + where(owner, status) + " order by r.sendAt" + direction + ", r.id" + direction;
        return bound(Panache.getEntityManager().createQuery(query, ReminderListItem.class), owner, status, from, to)
                .setFirstResult(page.index * page.size)
                .setMaxResults(page.size)
                .getResultList();
    }

    private static String where(String owner, ReminderStatus status) {
        return "r.sendAt >= :from and r.sendAt < :to" + (owner == null ? "" : " and m.owner = :owner")
                + (status == null ? "" : " and r.status = :status");
    }

    private static <T> TypedQuery<T> bound(
            TypedQuery<T> query, String owner, ReminderStatus status, Instant from, Instant to) {
        query.setParameter("from", from).setParameter("to", to);
        if (owner != null) {
            query.setParameter("owner", owner);
        }
        if (status != null) {
            query.setParameter("status", status);
        }
        return query;
    }
}
