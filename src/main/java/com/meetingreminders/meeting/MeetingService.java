package com.meetingreminders.meeting;

import com.fasterxml.jackson.databind.JsonNode;
import com.meetingreminders.http.InvalidBody;
import com.meetingreminders.limits.CallerUsage;
import com.meetingreminders.limits.UsageChange;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderPlan;
import com.meetingreminders.reminder.ReminderPlanner;
import com.meetingreminders.reminder.ScheduleChange;
import com.meetingreminders.series.SeriesRule;
import com.meetingreminders.timer.ReminderRef;
import io.quarkus.panache.common.Page;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Creates, changes and deletes meetings; each change plans the meeting's reminders in the same transaction. Every call
 * names the owner: a meeting of another owner is not found.
 */
@ApplicationScoped
@Transactional
public class MeetingService {

    private final ReminderPlanner planner;
    private final CallerUsage callerUsage;
    private final Clock clock;
    private final MeetingPatcher patcher;
    private final MeetingOccurrences occurrences;

    MeetingService(
            ReminderPlanner planner,
            CallerUsage callerUsage,
            Clock clock,
            MeetingPatcher patcher,
            MeetingOccurrences occurrences) {
        this.occurrences = occurrences;
        this.planner = planner;
        this.patcher = patcher;
        this.callerUsage = callerUsage;
        this.clock = clock;
    }

    public MeetingView create(String owner, MeetingRequest request) {
        return createAll(owner, List.of(request)).get(0);
    }

    /**
     * Creates all the meetings in one transaction: all of them, or none. Together they count toward the owner's
     * limits.
     */
    public List<MeetingView> createAll(String owner, List<MeetingRequest> requests) {
        Instant now = clock.instant();
        UsageChange usage = new UsageChange(now);
        // Every meeting before any reminder: the inserts then go in batches of each kind, and each reminder's meeting
        // is written before it.
        List<Meeting> meetings = requests.stream()
                .map(request -> newMeeting(owner, request, now))
                .toList();
        List<MeetingView> created = new ArrayList<>();
        for (int i = 0; i < meetings.size(); i++) {
            created.add(planNew(meetings.get(i), requests.get(i), now, usage));
        }
        charge(owner, usage);
        return created;
    }

    private static Meeting newMeeting(String owner, MeetingRequest request, Instant now) {
        Meeting meeting = new Meeting();
        meeting.id = UUID.randomUUID();
        meeting.owner = owner;
        meeting.createdAt = now;
        write(meeting, request, now);
        meeting.persist();
        return meeting;
    }

    private MeetingView planNew(Meeting meeting, MeetingRequest request, Instant now, UsageChange usage) {
        ReminderPlan plan = planner.planNew(
                meeting.id, request.remindBeforeOrDefault(), occurrences.toPlan(meeting, meeting.startsAt, now), now);
        usage.meetingCreated();
        count(usage, meeting, plan, meeting.attendees.size());
        return MeetingView.of(meeting, plan.reminders());
    }

    public Optional<MeetingView> find(String owner, UUID id) {
        return Meeting.findOwned(owner, id)
                .map(meeting -> MeetingView.withMoves(meeting, Reminder.listForMeeting(meeting.id)));
    }

    public MeetingPage list(String owner, MeetingQuery query) {
        Instant from = query.fromOrEarliest();
        Instant to = query.toOrLatest();
        List<Meeting> meetings = Meeting.startingBetween(owner, from, to, Page.of(query.page(), query.size()));
        Map<UUID, List<Reminder>> reminders = Reminder.listForMeetings(
                meetings.stream().map(meeting -> meeting.id).toList());
        List<MeetingView> items = meetings.stream()
                .map(meeting -> MeetingView.of(meeting, reminders.getOrDefault(meeting.id, List.of())))
                .toList();
        return new MeetingPage(items, query.page(), query.size(), Meeting.countStartingBetween(owner, from, to));
    }

    /**
     * Replaces the meeting's fields. The meeting's row stays locked until the commit, so a delivery under way finishes
     * first and a change of schedule cancels exactly the reminders not yet sent.
     */
    public Optional<MeetingView> update(
            String owner, UUID id, MeetingRequest request, VersionPrecondition precondition) {
        return Meeting.findOwnedForUpdate(owner, id).map(meeting -> {
            precondition.check(meeting.version);
            return change(owner, meeting, request);
        });
    }

    /**
     * Changes only the fields the RFC 7386 merge patch names; null resets an optional field to its default. The patched
     * meeting passes the same rules as a PUT body.
     */
    public Optional<MeetingView> patch(String owner, UUID id, JsonNode patch, VersionPrecondition precondition) {
        return Meeting.findOwnedForUpdate(owner, id).map(meeting -> {
            precondition.check(meeting.version);
            return change(owner, meeting, patcher.patched(meeting, patch));
        });
    }

    private MeetingView change(String owner, Meeting meeting, MeetingRequest request) {
        Instant now = clock.instant();
        int attendeesBefore = meeting.attendees.size();
        List<Object> rule = ruleOf(meeting);
        write(meeting, request, now);
        if (!rule.equals(ruleOf(meeting))) {
            // As calendars do: a moved occurrence is known by its original start, which a new rule may not have.
            meeting.movedOccurrences.clear();
        }
        ReminderPlan plan = replan(owner, meeting, now, attendeesBefore);
        return MeetingView.of(meeting, plan.reminders());
    }

    /** What decides where the occurrences fall; a change of any of these drops the moved occurrences. */
    private static List<Object> ruleOf(Meeting meeting) {
        return Arrays.asList(meeting.startsAt, meeting.recurrence, meeting.timeZone);
    }

    /**
     * Moves one occurrence ({@code movedTo} present; its own original start undoes a move or a cancellation) or cancels
     * it, then plans the meeting's reminders again exactly as a change of the meeting does: its reminder rows locked,
     * unsent ones no longer wanted CANCELLED, their timers disarmed after the commit. Empty when the caller has no such
     * meeting or the instant is not one of its occurrences.
     */
    public Optional<ChangedOccurrence> changeOccurrence(
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
                    ReminderPlan plan = replan(owner, meeting, now, meeting.attendees.size());
                    List<Reminder> rows = plan.reminders().stream()
                            .filter(reminder -> OccurrenceService.occurrenceOf(reminder, meeting)
                                    .equals(occurrence))
                            .toList();
                    return new ChangedOccurrence(OccurrenceService.view(meeting, occurrence, rows), meeting.version);
                });
    }

    /** One occurrence as it is after a change, and the meeting's version for its ETag. */
    public record ChangedOccurrence(OccurrenceView occurrence, long version) {}

    /**
     * Plans the meeting's reminders again after a change, and counts it toward the owner's limits. A series plans again
     * from now on: occurrences that have started keep what they had.
     */
    private ReminderPlan replan(String owner, Meeting meeting, Instant now, int attendeesBefore) {
        Instant from = meeting.isSeries() ? now : meeting.startsAt;
        List<Duration> remindBefore =
                meeting.remindBefore.stream().map(Duration::parse).toList();
        ReminderPlan plan = planner.replan(meeting.id, remindBefore, occurrences.toPlan(meeting, from, now), now);
        UsageChange usage = new UsageChange(now);
        count(usage, meeting, plan, attendeesBefore);
        // The version is raised on flush; the answer and its ETag show the new one.
        charge(owner, usage);
        return plan;
    }

    /** Deletes the meeting and cancels its unsent reminders; false if there is no such meeting. */
    public boolean delete(String owner, UUID id) {
        return Meeting.findOwnedForUpdate(owner, id)
                .map(meeting -> {
                    ReminderPlan plan = planner.cancelAll(meeting.id);
                    UsageChange usage = new UsageChange(clock.instant());
                    usage.meetingDeleted();
                    count(usage, meeting, plan, meeting.attendees.size());
                    // Its reminders go with it, before it, as entities of this session: they are locked and loaded.
                    plan.reminders().forEach(Reminder::delete);
                    meeting.delete();
                    charge(owner, usage);
                    return true;
                })
                .orElse(false);
    }

    /**
     * Adds what the planner changed to the owner's counts: reminders planned and cancelled, and, when the attendees
     * change, the e-mails of the reminders that stay planned.
     */
    private static void count(UsageChange usage, Meeting meeting, ReminderPlan plan, int attendeesBefore) {
        ScheduleChange change = plan.change();
        int attendees = meeting.attendees.size();
        change.armed().forEach(planned -> usage.reminderPlanned(planned.sendAt(), attendees));
        change.disarmed().forEach(cancelled -> usage.reminderCancelled(cancelled.sendAt(), attendeesBefore));
        if (attendees != attendeesBefore) {
            Set<ReminderRef> planned = Set.copyOf(change.armed());
            plan.reminders().stream()
                    .filter(reminder -> reminder.isScheduled() && !planned.contains(reminder.ref()))
                    .forEach(kept -> usage.attendeesChanged(kept.sendAt, attendees - attendeesBefore));
        }
    }

    /**
     * Last before the commit, so that the owner's counts stay locked as briefly as they can: what the transaction
     * wrote goes to the database first.
     */
    private void charge(String owner, UsageChange usage) {
        Meeting.flush();
        callerUsage.charge(owner, usage);
    }

    private static void write(Meeting meeting, MeetingRequest request, Instant now) {
        meeting.title = request.title();
        meeting.startsAt = request.startsAtInstant();
        meeting.timeZone = request.timeZoneOrDefault();
        meeting.remindBefore =
                request.remindBeforeOrDefault().stream().map(Duration::toString).toList();
        meeting.attendees = request.attendeesOrNone();
        meeting.webhookUrl = normalized(request.webhookUrl());
        meeting.failureWebhookUrl = normalized(request.failureWebhookUrl());
        meeting.recurrence = Optional.ofNullable(request.recurrence())
                .map(rule -> SeriesRule.parse(rule).toString())
                .orElse(null);
        meeting.cancelledOccurrences = request.cancelledOccurrencesOrNone();
        meeting.updatedAt = now;
        MeetingOccurrences.check(meeting);
    }

    private static String normalized(String url) {
        return Optional.ofNullable(url)
                .map(given -> URI.create(given).toString())
                .orElse(null);
    }
}
