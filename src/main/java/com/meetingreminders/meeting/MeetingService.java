package com.meetingreminders.meeting;

import com.meetingreminders.reminder.ReminderPlanner;
import io.quarkus.panache.common.Page;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Creates, changes and deletes meetings; each change plans the meeting's reminders in the same transaction. Every call
 * names the owner: a meeting of another owner is not found.
 */
@ApplicationScoped
@Transactional
public class MeetingService {

    private final ReminderPlanner planner;
    private final Clock clock;

    MeetingService(ReminderPlanner planner, Clock clock) {
        this.planner = planner;
        this.clock = clock;
    }

    public MeetingView create(String owner, MeetingRequest request) {
        return createOne(owner, request, clock.instant());
    }

    /** Creates all the meetings in one transaction: all of them, or none. */
    public List<MeetingView> createAll(String owner, List<MeetingRequest> requests) {
        Instant now = clock.instant();
        return requests.stream().map(request -> createOne(owner, request, now)).toList();
    }

    private MeetingView createOne(String owner, MeetingRequest request, Instant now) {
        Meeting meeting = new Meeting();
        meeting.id = UUID.randomUUID();
        meeting.owner = owner;
        meeting.createdAt = now;
        write(meeting, request, now);
        meeting.persist();
        planner.planNew(meeting, request.remindBeforeOrDefault(), now);
        return MeetingView.of(meeting);
    }

    public Optional<MeetingView> find(String owner, UUID id) {
        return Meeting.findOwned(owner, id).map(MeetingView::of);
    }

    public MeetingPage list(String owner, MeetingQuery query) {
        Instant from = query.fromOrEarliest();
        Instant to = query.toOrLatest();
        List<MeetingView> items = Meeting.startingBetween(owner, from, to, Page.of(query.page(), query.size())).stream()
                .map(MeetingView::of)
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
            if (!precondition.allows(meeting.version)) {
                throw new StaleVersionException(meeting.version);
            }
            Instant now = clock.instant();
            write(meeting, request, now);
            planner.replan(meeting, request.remindBeforeOrDefault(), now);
            // The version is raised on flush; the answer and its ETag show the new one.
            Meeting.flush();
            return MeetingView.of(meeting);
        });
    }

    /** Deletes the meeting and cancels its unsent reminders; false if there is no such meeting. */
    public boolean delete(String owner, UUID id) {
        return Meeting.findOwnedForUpdate(owner, id)
                .map(meeting -> {
                    planner.cancelAll(meeting);
                    meeting.delete();
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
        meeting.updatedAt = now;
    }

    private static String normalized(String url) {
        return Optional.ofNullable(url)
                .map(given -> URI.create(given).toString())
                .orElse(null);
    }
}
