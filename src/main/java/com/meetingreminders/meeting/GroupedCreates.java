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
import java.util.concurrent.Semaphore;

/**
 * Group commit of one owner's creates. Every change of an owner's meetings locks the owner's usage counts until it
 * commits (see {@link com.meetingreminders.limits.CallerUsage}), so one owner's creates take turns, each paying for a
 * whole commit. Here an owner has two turns on each replica (see {@link OwnerTurn}); the creates that arrive while both
 * are taken wait, and the next free turn takes them together: one transaction, one lock of the counts, one commit and
 * one Redis call to arm their reminders.
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

    /** The statement batch size: a group's inserts go to the database in one batch of each kind. */
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
            // Until a group, this thread's or another turn's, has taken the request; then its answer is there or
            // coming.
            boolean waitingForAGroup = true;
            while (waitingForAGroup && !waiting.answer.isDone()) {
                waitingForAGroup = createNextGroup(owner, turn);
            }
        } finally {
            turns.computeIfPresent(owner, (key, existing) -> existing.leave());
        }
        return answerOf(waiting);
    }

    /**
     * Takes a turn and creates the group of the requests waiting then; false if there were none, because another turn
     * took this thread's request too.
     */
    private boolean createNextGroup(String owner, OwnerTurn turn) {
        turn.groups.acquireUninterruptibly();
        try {
            List<Waiting> group = turn.take();
            if (group.isEmpty()) {
                return false;
            }
            createGroup(owner, group);
            return true;
        } finally {
            turn.groups.release();
        }
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
            // Only an Error gets here with answers missing; no request of the group may wait for ever.
            group.forEach(waiting ->
                    waiting.answer.completeExceptionally(new IllegalStateException("The create failed in its group")));
        }
    }

    private void createTogether(String owner, List<Waiting> group) {
        List<MeetingView> created;
        try {
            created = meetings.createTogether(
                    owner, group.stream().map(Waiting::meeting).toList());
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
            NewMeeting meeting = waiting.meeting;
            waiting.answer.complete(meetings.create(owner, meeting.request(), meeting.moved()));
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
        /**
         * Two groups at a time: one writes its rows while the other holds the owner's counts and commits, and only
         * the counts and the commit take turns. Fair: the requests a group has just answered are first in line, and
         * let go at once.
         */
        private final Semaphore groups = new Semaphore(2, true);

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

        /** The oldest waiting requests, up to a group's size; none if other groups took them all. */
        List<Waiting> take() {
            List<Waiting> group = new ArrayList<>();
            Waiting next;
            while (group.size() < MAX_GROUP && (next = waiting.poll()) != null) {
                group.add(next);
            }
            return group;
        }
    }
}
