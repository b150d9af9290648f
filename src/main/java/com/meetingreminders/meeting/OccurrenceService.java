package com.meetingreminders.meeting;

import com.meetingreminders.http.InvalidBody;
import com.meetingreminders.meeting.MeetingView.ReminderState;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderStatus;
import com.meetingreminders.series.Occurrences;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Lists a meeting's occurrences with their reminders, expanding the rule for the window asked, never stored. */
@ApplicationScoped
@Transactional
public class OccurrenceService {

    /** The window when {@code to} is not given: a year of occurrences from {@code from}. */
    static final Duration DEFAULT_WINDOW = Duration.ofDays(366);

    /**
     * Most occurrences one window may hold: a year of an hourly series and more. A wider window is refused rather than
     * cut short, so that {@code total} is never a silent cap, and no listing expands more than this.
     */
    static final int MOST_LISTED = 10_000;

    public Optional<OccurrenceView.Page> list(String owner, UUID id, MeetingQuery query) {
        return Meeting.findOwned(owner, id).map(meeting -> {
            Instant from = query.fromGiven().orElse(meeting.startsAt);
            Instant asked = query.toGiven().orElse(from.plus(DEFAULT_WINDOW));
            // An endless series goes on past the year 9999, which no answer can write.
            Instant to = asked.isAfter(IsoDateTime.Validator.END) ? IsoDateTime.Validator.END : asked;
            List<Instant> all = occurrencesBetween(meeting, from, to);
            if (all.size() > MOST_LISTED) {
                // Only a window the caller chose can: a year holds at most 8,785 occurrences of an hourly series.
                throw new InvalidBody(
                        "to",
                        "must bound a window of at most " + String.format(Locale.ROOT, "%,d", MOST_LISTED)
                                + " occurrences; this one holds more: ask for a shorter one");
            }
            Map<Instant, List<Reminder>> rows = Reminder.listForMeeting(meeting.id).stream()
                    .collect(Collectors.groupingBy(reminder -> occurrenceOf(reminder, meeting)));
            List<OccurrenceView> items = all.stream()
                    .skip((long) query.page() * query.size())
                    .limit(query.size())
                    .map(occurrence -> view(meeting, occurrence, rows.getOrDefault(occurrence, List.of())))
                    .toList();
            return new OccurrenceView.Page(items, query.page(), query.size(), all.size());
        });
    }

    /** Every occurrence in [from, to), cancelled ones included, in order. */
    private static List<Instant> occurrencesBetween(Meeting meeting, Instant from, Instant to) {
        Optional<Occurrences> series = MeetingOccurrences.seriesOf(meeting);
        if (series.isEmpty()) {
            boolean inside = !meeting.startsAt.isBefore(from) && meeting.startsAt.isBefore(to);
            return inside ? List.of(meeting.startsAt) : List.of();
        }
        Occurrences withCancelled = new Occurrences(
                series.get().rule(), series.get().first(), series.get().zone(), java.util.Set.of());
        return withCancelled.between(from, to, MOST_LISTED + 1);
    }

    static OccurrenceView view(Meeting meeting, Instant occurrence, List<Reminder> rows) {
        if (meeting.cancelledOccurrences.contains(occurrence)) {
            return new OccurrenceView(occurrence, occurrence, OccurrenceView.Status.CANCELLED, states(rows));
        }
        Instant startsAt = meeting.movedOccurrences.getOrDefault(occurrence, occurrence);
        List<ReminderState> reminders = rows.isEmpty() ? beyondHorizon(meeting, startsAt) : states(rows);
        OccurrenceView.Status status =
                startsAt.equals(occurrence) ? OccurrenceView.Status.SCHEDULED : OccurrenceView.Status.MOVED;
        return new OccurrenceView(occurrence, startsAt, status, reminders);
    }

    /** Reminders not planned as rows yet (past the horizon): when they will be sent, SCHEDULED as they will be. */
    private static List<ReminderState> beyondHorizon(Meeting meeting, Instant startsAt) {
        return meeting.remindBefore.stream()
                .map(before -> new ReminderState(startsAt.minus(Duration.parse(before)), ReminderStatus.SCHEDULED))
                .sorted(Comparator.comparing(ReminderState::sendAt))
                .toList();
    }

    private static List<ReminderState> states(List<Reminder> rows) {
        return rows.stream()
                .map(reminder -> new ReminderState(reminder.sendAt, reminder.status))
                .sorted(Comparator.comparing(ReminderState::sendAt))
                .toList();
    }

    static Instant occurrenceOf(Reminder reminder, Meeting meeting) {
        return Stream.ofNullable(reminder.occurrence).findFirst().orElse(meeting.startsAt);
    }
}
