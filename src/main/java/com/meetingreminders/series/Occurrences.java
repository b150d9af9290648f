package com.meetingreminders.series;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.dmfs.rfc5545.DateTime;
import org.dmfs.rfc5545.InstanceIterator;
import org.dmfs.rfc5545.recurrenceset.OfRule;
import org.dmfs.rfc5545.recurrenceset.OfRuleAndFirst;

/**
 * The occurrences of a series on the wall clock: lib-recur expands the rule in floating local time from the first
 * start, and each local time becomes an instant in the zone as {@link ZonedDateTime#of} resolves it: a time in a
 * spring-forward gap moves forward by the gap, one in a fall-back overlap takes the earlier offset. No occurrence is
 * dropped for want of a wall-clock time, which RFC 5545 would do and a reminder service must not.
 */
public record Occurrences(SeriesRule rule, Instant first, ZoneId zone, Set<Instant> cancelled) {

    /**
     * The occurrences (by original start) in [from, to), in order, at most {@code limit}; cancelled ones are left out.
     */
    public List<Instant> between(Instant from, Instant to, int limit) {
        List<Instant> found = new ArrayList<>();
        InstanceIterator instances;
        try {
            instances = instancesNear(from);
        } catch (IllegalArgumentException | IllegalStateException filteredAway) {
            // lib-recur gives up on a rule whose instances it keeps filtering out (an IllegalStateException once a
            // BYSETPOS has found 1,000 sets empty, an IllegalArgumentException otherwise): nothing (more) occurs.
            return found;
        }
        while (found.size() < limit) {
            Optional<DateTime> instance = nextOf(instances);
            if (instance.isEmpty()) {
                break;
            }
            DateTime next = instance.get();
            // An offset is whole seconds: the first start's fraction of a second is the same on the wall clock.
            Instant occurrence =
                    ZonedDateTime.of(local(next, first.getNano()), zone).toInstant();
            if (!occurrence.isBefore(to)) {
                break;
            }
            if (!occurrence.isBefore(from) && !cancelled.contains(occurrence)) {
                found.add(occurrence);
            }
        }
        return found;
    }

    /**
     * The series' instances in floating local time from a day before {@code from} on, skipped to by the rule rather
     * than walked to from the first start: a window years into an endless hourly series costs what the window holds (a
     * rule with a COUNT still counts through what it skips). A day before, so that an occurrence moved forward by a gap
     * or earlier by an overlap is not jumped over.
     */
    InstanceIterator instancesNear(Instant from) {
        LocalDateTime firstLocal = LocalDateTime.ofInstant(first, zone);
        InstanceIterator instances = new OfRuleAndFirst(rule.floatingIn(zone), floating(firstLocal)).iterator();
        LocalDateTime fromLocal = LocalDateTime.ofInstant(from, zone).minusDays(1);
        if (fromLocal.isAfter(firstLocal)) {
            instances.fastForward(floating(fromLocal));
        }
        return instances;
    }

    /**
     * Refuses a rule that yields nothing of its own beyond the first start (BYMONTHDAY=30 in February, an UNTIL before
     * the start): such a "series" is a mistake the client should hear about.
     */
    public void check() {
        boolean any;
        try {
            any = new OfRule(rule.floatingIn(zone), floating(LocalDateTime.ofInstant(first, zone)))
                    .iterator()
                    .hasNext();
        } catch (IllegalArgumentException | IllegalStateException filteredAway) {
            any = false;
        }
        if (!any) {
            throw new InvalidSeries("produces no occurrence from startsAt on");
        }
    }

    /**
     * The next instance, if there is one. lib-recur gives up on a rule whose instances it keeps filtering out, in
     * {@code hasNext} or, having looked one ahead, in {@code next}; that is the end of the series.
     */
    private static Optional<DateTime> nextOf(InstanceIterator instances) {
        try {
            return instances.hasNext() ? Optional.of(instances.next()) : Optional.empty();
        } catch (IllegalArgumentException | IllegalStateException filteredAway) {
            return Optional.empty();
        }
    }

    /** Whether the instant is an occurrence of the series, cancelled or not. */
    public boolean contains(Instant occurrence) {
        return new Occurrences(rule, first, zone, Set.of())
                .between(occurrence, occurrence.plusMillis(1), 1)
                .contains(occurrence);
    }

    static DateTime floating(LocalDateTime local) {
        // lib-recur counts months from 0, as java.util.Calendar does.
        return new DateTime(
                local.getYear(),
                local.getMonthValue() - 1,
                local.getDayOfMonth(),
                local.getHour(),
                local.getMinute(),
                local.getSecond());
    }

    private static LocalDateTime local(DateTime floating, int nanos) {
        return LocalDateTime.of(
                floating.getYear(),
                floating.getMonth() + 1,
                floating.getDayOfMonth(),
                floating.getHours(),
                floating.getMinutes(),
                floating.getSeconds(),
                nanos);
    }
}
