package com.meetingreminders.meeting;

import jakarta.enterprise.context.RequestScoped;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The occurrences that the calendar imported by this request moves (original start to new start). The JSON body has no
 * field for them, so {@link CalendarBodyReader} leaves them here beside the {@link MeetingRequest} it reads, and the
 * create takes them; a JSON create finds none.
 */
@RequestScoped
class ImportedMoves {

    private Map<Instant, Instant> moved = Map.of();

    void set(Map<Instant, Instant> moved) {
        this.moved = Map.copyOf(moved);
    }

    Map<Instant, Instant> get() {
        return moved;
    }

    /**
     * What an Idempotency-Key compares: the body alone when nothing is moved (as for JSON), else the body and the moves,
     * so that the same key with other moves is another request.
     */
    Object withBody(MeetingRequest body) {
        if (moved.isEmpty()) {
            return body;
        }
        Map<String, String> sorted = new TreeMap<>();
        moved.forEach((occurrence, startsAt) -> sorted.put(occurrence.toString(), startsAt.toString()));
        return new CalendarCreate(body, sorted);
    }

    record CalendarCreate(MeetingRequest meeting, Map<String, String> movedOccurrences) {}
}
