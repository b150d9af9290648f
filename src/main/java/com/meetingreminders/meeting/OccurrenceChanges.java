package com.meetingreminders.meeting;

import com.meetingreminders.http.InvalidBody;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderPlan;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Moves or cancels one occurrence of a meeting, and plans the meeting's reminders again as a change of it does. */
@ApplicationScoped
@Transactional
public class OccurrenceChanges {

    private final MeetingPlans plans;
    private final Clock clock;

    OccurrenceChanges(MeetingPlans plans, Clock clock) {
        this.plans = plans;
        this.clock = clock;
    }

    /** One occurrence as it is after a change, and the meeting's version for its ETag. */
    public record ChangedOccurrence(OccurrenceView occurrence, long version) {}

    /**
     * Moves one occurrence ({@code movedTo} present; its own original start undoes a move or a cancellation) or cancels
     * it, then plans the meeting's reminders again exactly as a change of the meeting does: its reminder rows locked,
     * unsent ones no longer wanted CANCELLED, their timers disarmed after the commit. Empty when the caller has no such
     * meeting or the instant is not one of its occurrences.
     */
    public Optional<ChangedOccurrence> change(
            String owner, UUID id, Instant occurrence, Optional<Instant> movedTo, VersionPrecondition precondition) {
        return Meeting.findOwnedForUpdate(owner, id)
                .filter(meeting -> MeetingOccurrences.isOccurrence(meeting, occurrence))
                .map(meeting -> {
                    precondition.check(meeting.version);
                    Instant now = clock.instant();
                    List<Instant> cancelled = new ArrayList<>(meeting.cancelledOccurrences);
                    cancelled.remove(occurrence);
                    meeting.movedOccurrences.remove(occurrence);
                    movedTo.filter(at -> !at.equals(occurrence))
                            .ifPresent(at -> meeting.movedOccurrences.put(occurrence, at));
                    if (movedTo.isEmpty()) {
                        cancelled.add(occurrence);
                        cancelled.sort(null);
                    }
                    if (cancelled.size() > MeetingRequest.MAX_CANCELLED) {
                        throw new InvalidBody("cancelled", "a series holds at most 1,000 cancelled occurrences");
                    }
                    if (meeting.movedOccurrences.size() > MeetingRequest.MAX_CANCELLED) {
                        throw new InvalidBody("startsAt", "a series holds at most 1,000 moved occurrences");
                    }
                    meeting.cancelledOccurrences = cancelled;
                    meeting.updatedAt = now;
                    ReminderPlan plan = plans.replan(owner, meeting, now, meeting.attendees.size());
                    List<Reminder> rows = plan.reminders().stream()
                            .filter(reminder -> OccurrenceService.occurrenceOf(reminder, meeting)
                                    .equals(occurrence))
                            .toList();
                    return new ChangedOccurrence(OccurrenceService.view(meeting, occurrence, rows), meeting.version);
                });
    }
}
