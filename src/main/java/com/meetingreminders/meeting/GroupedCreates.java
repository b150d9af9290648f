package com.meetingreminders.meeting;

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
 * Each request is still answered on its own, after the commit and the arming, as a create alone would be.
 *
 * <p>A group that fails (one request's reminders collide, or together they pass a limit that each alone would not)
 * stores nothing, and its requests then run one by one, each in its own transaction: every request gets the answer it
 * would have got alone, and a bad one fails no other. Owners never share a group: one owner's creates never wait for
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
        Waiting waiting = new Waiting(request, moved);
        OwnerTurn turn =
                turns.compute(owner, (key, existing) -> (existing == null ? new OwnerTurn() : existing).join());
        try {
            turn.waiting.add(waiting);
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
        if (group.size() == 1) {
            createAlone(owner, group.get(0));
            return;
        }
        List<MeetingView> created;
        try {
            created = meetings.createAll(
                    owner,
                    group.stream().map(Waiting::request).toList(),
                    group.stream().map(Waiting::moved).toList());
        } catch (RuntimeException groupFailed) {
            group.forEach(waiting -> createAlone(owner, waiting));
            return;
        }
        for (int i = 0; i < group.size(); i++) {
            group.get(i).answer.complete(created.get(i));
        }
    }

    private void createAlone(String owner, Waiting waiting) {
        try {
            waiting.answer.complete(meetings.create(owner, waiting.request, waiting.moved));
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

    private record Waiting(MeetingRequest request, Map<Instant, Instant> moved, CompletableFuture<MeetingView> answer) {
        Waiting(MeetingRequest request, Map<Instant, Instant> moved) {
            this(request, moved, new CompletableFuture<>());
        }
    }

    /** One owner's queue and turn; it is forgotten when no request of the owner is in it. */
    private static final class OwnerTurn {
        private final ReentrantLock lock = new ReentrantLock();
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
