package com.meetingreminders.meeting;

import com.fasterxml.jackson.databind.JsonNode;
import com.meetingreminders.http.InvalidBody;
import com.meetingreminders.limits.UsageChange;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderCollision;
import com.meetingreminders.reminder.ReminderPlan;
import com.meetingreminders.reminder.ScheduleChange;
import com.meetingreminders.series.SeriesRule;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.panache.common.Page;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Creates, changes and deletes meetings; each change plans the meeting's reminders in the same transaction. Every call
 * names the owner: a meeting of another owner is not found.
 */
@ApplicationScoped
@Transactional
public class MeetingService {

    private final MeetingPlans plans;
    private final Clock clock;
    private final MeetingPatcher patcher;
    private final NewMeetingRows rows;

    MeetingService(MeetingPlans plans, Clock clock, MeetingPatcher patcher, NewMeetingRows rows) {
        this.plans = plans;
        this.clock = clock;
        this.patcher = patcher;
        this.rows = rows;
    }

    @Transactional(TxType.SUPPORTS)
    public MeetingView create(String owner, MeetingRequest request) {
        return create(owner, request, Map.of());
    }

    /**
     * Creates a series with some occurrences already moved (original start to new start), as an imported calendar's
     * exceptions move them.
     */
    @Transactional(TxType.SUPPORTS)
    public MeetingView create(String owner, MeetingRequest request, Map<Instant, Instant> moved) {
        return createTogether(owner, List.of(new NewMeeting(request, moved, Context.current())), false)
                .get(0);
    }

    /**
     * Creates all the meetings in one transaction: all of them, or none. Together they count toward the owner's
     * limits.
     */
    @Transactional(TxType.SUPPORTS)
    public List<MeetingView> createAll(String owner, List<MeetingRequest> requests) {
        Context trace = Context.current();
        return createTogether(
                owner,
                requests.stream()
                        .map(request -> new NewMeeting(request, Map.of(), trace))
                        .toList(),
                true);
    }

    /** A meeting to create, with the occurrences an imported calendar moved, and the trace of the request. */
    record NewMeeting(MeetingRequest request, Map<Instant, Instant> moved, Context trace) {}

    /**
     * Creates all the meetings in one transaction, all or none. Each meeting's reminders join the trace of the request
     * that asked for it, which is not always the current one (see {@link GroupedCreates}). The transaction is the
     * rows' own (see {@link NewMeetingRows}) unless a JTA one is open. A refusal of one meeting of a batch names it by
     * its index, as [3], as the batch's own validation does.
     */
    @Transactional(TxType.SUPPORTS)
    List<MeetingView> createTogether(String owner, List<NewMeeting> requests, boolean batch) {
        Instant now = clock.instant();
        UsageChange usage = new UsageChange(now);
        List<Meeting> meetings = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            NewMeeting request = requests.get(i);
            try {
                meetings.add(newMeeting(owner, request.request(), request.moved(), now));
            } catch (InvalidBody e) {
                throw batch ? e.inMeeting(indexOf(i)) : e;
            }
        }
        List<MeetingView> created = new ArrayList<>();
        List<Reminder> reminders = new ArrayList<>();
        List<ScheduleChange> schedules = new ArrayList<>();
        for (int i = 0; i < meetings.size(); i++) {
            Meeting meeting = meetings.get(i);
            try (Scope trace = requests.get(i).trace().makeCurrent()) {
                ReminderPlan plan = plans.planNew(meeting, now, usage);
                reminders.addAll(plan.reminders());
                schedules.add(plan.change());
                created.add(MeetingView.of(meeting, plan.reminders()));
            } catch (ReminderCollision e) {
                throw batch ? e.inMeeting(indexOf(i)) : e;
            }
        }
        // Written once planned: planning sets a series' horizon on its meeting.
        rows.store(owner, meetings, reminders, schedules, usage);
        return created;
    }

    private static String indexOf(int meetingOfBatch) {
        return "[" + meetingOfBatch + "]";
    }

    private static Meeting newMeeting(String owner, MeetingRequest request, Map<Instant, Instant> moved, Instant now) {
        Meeting meeting = new Meeting();
        meeting.id = UUID.randomUUID();
        meeting.owner = owner;
        meeting.createdAt = now;
        write(meeting, request, now);
        moved.values().forEach(startsAt -> checkMovedStart(startsAt, now));
        meeting.movedOccurrences.putAll(moved);
        return meeting;
    }

    /** An imported move lands where PATCH of the occurrence could put it. */
    private static void checkMovedStart(Instant startsAt, Instant now) {
        Instant latest = now.atOffset(ZoneOffset.UTC)
                .plusYears(StartsInRange.YEARS_AHEAD)
                .toInstant();
        if (startsAt.isBefore(StartsInRange.EARLIEST) || startsAt.isAfter(latest)) {
            throw new InvalidBody(
                    "DTSTART", "of a moved occurrence must be from 2000-01-01T00:00:00Z to ten years from now");
        }
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
        ReminderPlan plan = plans.replan(owner, meeting, now, attendeesBefore);
        return MeetingView.of(meeting, plan.reminders());
    }

    /** What decides where the occurrences fall; a change of any of these drops the moved occurrences. */
    private static List<Object> ruleOf(Meeting meeting) {
        return Arrays.asList(meeting.startsAt, meeting.recurrence, meeting.timeZone);
    }

    /**
     * Deletes the meeting and cancels its unsent reminders, if its version is one the precondition accepts; false if
     * there is no such meeting.
     */
    public boolean delete(String owner, UUID id, VersionPrecondition precondition) {
        return Meeting.findOwnedForUpdate(owner, id)
                .map(meeting -> {
                    precondition.check(meeting.version);
                    List<Reminder> rows = new ArrayList<>();
                    UsageChange usage = plans.cancelAll(meeting, rows);
                    // Its reminders go with it, before it, as entities of this session: they are locked and loaded.
                    rows.forEach(Reminder::delete);
                    meeting.delete();
                    plans.charge(owner, usage);
                    return true;
                })
                .orElse(false);
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
