package com.meetingreminders.limits;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one transaction's changes to a caller's meetings add to its fair-use counts, or give back: meetings held,
 * reminders due in each calendar minute and e-mails planned in each calendar hour (UTC). A reminder falls due at its
 * send time, or at once if that has passed when it is planned. A reminder delivered stays counted in its minute, so
 * that a caller cannot send more within a minute by waiting for the first ones to go out.
 */
public final class UsageChange {

    /** The counts kept for each caller, as the caller_usage table names them. */
    enum Kind {
        MEETINGS,
        REMINDERS,
        EMAILS
    }

    /** One count of one caller, for one period (the epoch for meetings held, which have none). */
    record Bucket(Kind kind, Instant start) implements Comparable<Bucket> {
        @Override
        public int compareTo(Bucket other) {
            int byKind = kind.compareTo(other.kind);
            return byKind != 0 ? byKind : start.compareTo(other.start);
        }
    }

    private static final Bucket MEETINGS = new Bucket(Kind.MEETINGS, Instant.EPOCH);

    private final Instant now;
    /** Ordered, so that every transaction locks a caller's counts in the same order and none waits for another. */
    private final Map<Bucket, Long> amounts = new TreeMap<>();

    public UsageChange(Instant now) {
        this.now = now;
    }

    public void meetingCreated() {
        add(MEETINGS, 1);
    }

    public void meetingDeleted() {
        add(MEETINGS, -1);
    }

    /** A new reminder is planned; each attendee gets an e-mail from it. */
    public void reminderPlanned(Instant sendAt, int attendees) {
        Instant due = sendAt.isAfter(now) ? sendAt : now;
        add(new Bucket(Kind.REMINDERS, due.truncatedTo(ChronoUnit.MINUTES)), 1);
        add(new Bucket(Kind.EMAILS, due.truncatedTo(ChronoUnit.HOURS)), attendees);
    }

    /**
     * An unsent reminder is cancelled. One not yet due gives its minute and hour back; one already due is being sent
     * and keeps its place.
     */
    public void reminderCancelled(Instant sendAt, int attendees) {
        if (sendAt.isAfter(now)) {
            add(new Bucket(Kind.REMINDERS, sendAt.truncatedTo(ChronoUnit.MINUTES)), -1);
            add(new Bucket(Kind.EMAILS, sendAt.truncatedTo(ChronoUnit.HOURS)), -attendees);
        }
    }

    /**
     * A FAILED reminder is sent again: it falls due again now, with the e-mails it still owes. Retries would otherwise
     * be a way around the limits: a caller whose receiver fails could send all its failed reminders in one minute.
     */
    public void reminderRetried(int emailsOwed) {
        add(new Bucket(Kind.REMINDERS, now.truncatedTo(ChronoUnit.MINUTES)), 1);
        add(new Bucket(Kind.EMAILS, now.truncatedTo(ChronoUnit.HOURS)), emailsOwed);
    }

    /** A reminder that stays planned goes to a different number of attendees from now on. */
    public void attendeesChanged(Instant sendAt, int more) {
        if (sendAt.isAfter(now)) {
            add(new Bucket(Kind.EMAILS, sendAt.truncatedTo(ChronoUnit.HOURS)), more);
        }
    }

    Map<Bucket, Long> amounts() {
        return amounts;
    }

    Instant now() {
        return now;
    }

    private void add(Bucket bucket, long amount) {
        if (amount != 0) {
            amounts.merge(bucket, amount, Long::sum);
        }
    }
}
