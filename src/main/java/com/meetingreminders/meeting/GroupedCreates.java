package com.meetingreminders.meeting;

import com.meetingreminders.http.ProblemException;
import com.meetingreminders.meeting.MeetingService.NewMeeting;
import io.opentelemetry.context.Context;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit of one owner's creates. Every change of an owner's meetings locks the owner's usage counts until it
 * commits (see {@link com.meetingreminders.limits.CallerUsage}), so one owner's creates take turns, each paying for a
 * whole commit. Here the creates that arrive while an earlier one of the same owner is committing wait for it, and
 * then go in together: one transaction, one lock of the counts, one commit and one Redis call to arm their reminders.
 * Each request is still answered on its own, after the commit and the arming, as a create alone would be, and each
 * meeting's reminders join the trace of its own request.
 *
 * <p>A group that one request spoils before the commit (its reminders collide, or together the group passes a limit
 * that each alone would not: a {@link ProblemException}) stores nothing, and its requests then run one by one, each in
 * its own transaction: every request gets the answer it would have got alone, and a bad one fails no other. Any other
 * failure (the database gone, a commit whose outcome is unknown) is every request's answer, as it would have been
 * alone: running them again could store them twice. Owners never share a group: one owner's creates never wait for
 * another's.
 */
@ApplicationScoped
class GroupedCreates {

    /**
     * At most this many creates share a transaction: it bounds how long the first of a group waits for the last, and
     * how many creates run again one by one when a request spoils its group.
     */
    static final int MAX_GROUP = 100;

    private final MeetingService meetings;
    private final Map<String, OwnerTurn> turns = new ConcurrentHashMap<>();

    GroupedCreates(MeetingService meetings) {
        this.meetings = meetings;
    }

    /**
     * Creates the meeting and answers once it is committed and armed, with its view or with the exception the create
     * alone would have thrown.
     */
    MeetingView create(String owner, MeetingRequest request, Map<Instant, Instant> moved) {
        if (QuarkusTransaction.isActive()) {
            // An Idempotency-Key's answer commits with the meeting, in the transaction already open.
            return meetings.create(owner, request, moved);
        }
        Waiting waiting = new Waiting(new NewMeeting(request, moved, Context.current()), new CompletableFuture<>());
        OwnerTurn turn =
                turns.compute(owner, (key, existing) -> (existing == null ? new OwnerTurn() : existing).join());
        try {
            turn.waiting.add(waiting);
            // Fair: the requests a group has just answered are first in line, and let go at once.
            turn.lock.lock();
            try {
                // The holder before us may have taken this request into its group and answered it already.
                while (!waiting.answer.isDone()) {
                    createGroup(owner, turn.take());
                }
            } finally {
                turn.lock.unlock();
            }
        } finally {
            turns.computeIfPresent(owner, (key, existing) -> existing.leave());
        }
        return answerOf(waiting);
    }

    /** How many of the owner's creates wait for their turn. */
    int waiting(String owner) {
        OwnerTurn turn = turns.get(owner);
        return turn == null ? 0 : turn.waiting.size();
    }

    private void createGroup(String owner, List<Waiting> group) {
        try {
            if (group.size() == 1) {
                createAlone(owner, group.get(0));
            } else {
                createTogether(owner, group);
            }
        } finally {
            // Only an Error gets here with answers missing; no request of the group may wait for ever. Checked first:
            // an exception made for every answered request, to be dropped, was 1% of a replica's CPU through creates.
            group.stream()
                    .filter(waiting -> !waiting.answer.isDone())
                    .forEach(waiting -> waiting.answer.completeExceptionally(
                            new IllegalStateException("The create failed in its group")));
        }
    }

    private void createTogether(String owner, List<Waiting> group) {
        List<MeetingView> created;
        try {
            created = meetings.createTogether(
                    owner, group.stream().map(Waiting::meeting).toList(), false);
        } catch (ProblemException spoiled) {
            group.forEach(waiting -> createAlone(owner, waiting));
            return;
        } catch (RuntimeException failed) {
            group.forEach(waiting -> waiting.answer.completeExceptionally(failed));
            return;
        }
        for (int i = 0; i < group.size(); i++) {
            group.get(i).answer.complete(created.get(i));
        }
    }

    private void createAlone(String owner, Waiting waiting) {
        try (var trace = waiting.meeting.trace().makeCurrent()) {
            waiting.answer.complete(meetings.createTogether(owner, List.of(waiting.meeting), false)
                    .get(0));
        } catch (RuntimeException e) {
            waiting.answer.completeExceptionally(e);
        }
    }

    /** The answer is there: this thread's group, or an earlier holder's, gave it before the turn passed on. */
    private static MeetingView answerOf(Waiting waiting) {
        try {
            return waiting.answer.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw e;
        }
    }

    private record Waiting(NewMeeting meeting, CompletableFuture<MeetingView> answer) {}

    /** One owner's queue and turn; it is forgotten when no request of the owner is in it. */
    private static final class OwnerTurn {
        private final ReentrantLock lock = new ReentrantLock(true);
        private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();
        // Changed only inside the map's compute for this owner, which runs one at a time.
        private int requests;

        OwnerTurn join() {
            requests++;
            return this;
        }

        OwnerTurn leave() {
            return --requests == 0 ? null : this;
        }

        /** At least the oldest waiting request: the holder's own is waiting until a group takes it. */
        List<Waiting> take() {
            List<Waiting> group = new ArrayList<>();
            Waiting next;
            while (group.size() < MAX_GROUP && (next = waiting.poll()) != null) {
                group.add(next);
            }
            if (group.isEmpty()) {
                throw new IllegalStateException("A create holds its turn but is in no queue");
            }
            return group;
        }
    }
}
