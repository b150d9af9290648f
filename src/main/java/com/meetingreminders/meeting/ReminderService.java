package com.meetingreminders.meeting;

import com.meetingreminders.limits.UsageChange;
import com.meetingreminders.notify.EmailChannel;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderPlanner;
import com.meetingreminders.reminder.ReminderStatus;
import io.quarkus.panache.common.Page;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Reads reminders for the API, and sends a FAILED one again. */
@ApplicationScoped
@Transactional
public class ReminderService {

    private final ReminderPlanner planner;
    private final MeetingPlans plans;
    private final Clock clock;

    ReminderService(ReminderPlanner planner, MeetingPlans plans, Clock clock) {
        this.planner = planner;
        this.plans = plans;
        this.clock = clock;
    }

    /** What a retry found: the reminder as it is now, and whether it was FAILED and is now scheduled again. */
    public record Retry(ReminderView reminder, boolean scheduled) {}

    /** The meeting's reminders by send time, or empty if the owner has no such meeting. */
    public Optional<List<ReminderView>> listForMeeting(String owner, UUID meetingId) {
        return Meeting.findOwned(owner, meetingId).map(meeting -> Reminder.listForMeeting(meeting.id).stream()
                .map(ReminderView::of)
                .toList());
    }

    /** Reminders of the owner's meetings, or of everyone's when {@code owner} is null (an operator). */
    public ReminderPage list(String owner, ReminderQuery query) {
        ReminderStatus status = query.statusOrAll().orElse(null);
        Instant from = query.fromOrEarliest();
        Instant to = query.toOrLatest();
        List<ReminderListItem> items =
                SendingReminders.list(owner, status, from, to, Page.of(query.page(), query.size()));
        return new ReminderPage(items, query.page(), query.size(), SendingReminders.count(owner, status, from, to));
    }

    /**
     * The web page's view: reminders sending from {@code from} on, of the owner's meetings (everyone's when null) and
     * of one status (every status when null), the first {@code size} by send time.
     */
    public List<ReminderListItem> listFrom(String owner, ReminderStatus status, Instant from, int size) {
        return SendingReminders.list(owner, status, from, SendingReminders.LATEST, Page.ofSize(size));
    }

    /** Every caller's reminders in this state, the newest send time first. */
    public List<ReminderListItem> latest(ReminderStatus status, int size) {
        return SendingReminders.listNewestFirst(null, status, Instant.EPOCH, Page.ofSize(size));
    }

    /**
     * Schedules a FAILED reminder again, due at once, with fresh attempts; its deliveryId stays what it was, since it
     * is made of the meeting and the send time. Empty when there is no such reminder of the owner's meetings (of any
     * meeting when {@code owner} is null); a reminder in another state is returned as it is, unchanged. The owner's
     * retry counts towards its limits as a reminder falling due now, and fails with everything unchanged over them; an
     * operator's is not counted.
     */
    public Optional<Retry> retry(String owner, UUID meetingId, Instant sendAt) {
        // The meeting's row first, as a change takes it: the attendees a retry counts are those it will be sent to.
        Optional<Meeting> meeting = owner == null
                ? Meeting.findByIdOptional(meetingId, LockModeType.PESSIMISTIC_WRITE)
                : Meeting.findOwnedForUpdate(owner, meetingId);
        if (meeting.isEmpty()) {
            return Optional.empty();
        }
        // Locked as a change locks them: a delivery round under way ends first, and its outcome is what we judge.
        return Reminder.lockForMeeting(meetingId).stream()
                .filter(reminder -> reminder.sendAt.equals(sendAt))
                .findFirst()
                .map(reminder -> retry(reminder, meeting.get(), owner != null));
    }

    private Retry retry(Reminder reminder, Meeting meeting, boolean counted) {
        boolean scheduled = planner.retry(reminder);
        if (scheduled && counted) {
            UsageChange usage = new UsageChange(clock.instant());
            List<String> emailed = meeting.attendees.stream()
                    .map(attendee -> EmailChannel.RECIPIENT + attendee)
                    .toList();
            usage.reminderRetried(emailed.size() - Reminder.reached(reminder.id, emailed));
            plans.charge(meeting.owner, usage);
        }
        return new Retry(ReminderView.of(reminder), scheduled);
    }
}
