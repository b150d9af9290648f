package com.meetingreminders.reminder;

import com.meetingreminders.http.Problem;
import com.meetingreminders.http.ProblemException;
import java.time.Instant;

/**
 * A change would give two occurrences of one meeting a reminder at the same instant. A reminder is known by its meeting
 * and send time (its deliveryId, the key of its timer), so the two cannot be two reminders, and one silently dropped is
 * a reminder never sent: the change is refused, 409, and nothing is stored. 409 rather than 422: the body is valid on
 * its own; it conflicts with another occurrence of the same meeting, and moving either one resolves it.
 */
public class ReminderCollision extends ProblemException {

    public static final String TYPE = "/problems/reminder-collision";

    private final Instant sendAt;
    private final Instant first;
    private final Instant second;

    public ReminderCollision(Instant sendAt, Instant first, Instant second) {
        this("the meeting", sendAt, first, second);
    }

    private ReminderCollision(String meeting, Instant sendAt, Instant first, Instant second) {
        super(new Problem(
                TYPE,
                "Reminders collide",
                409,
                "The occurrences " + first + " and " + second + " of " + meeting
                        + " would both have a reminder at " + sendAt + ", and a meeting has one reminder per send"
                        + " time (its deliveryId). Move one of them, or change remindBefore; nothing was stored.",
                null));
        this.sendAt = sendAt;
        this.first = first;
        this.second = second;
    }

    /** The same refusal naming the meeting of a batch by its index, as [3]. */
    public ReminderCollision inMeeting(String index) {
        return new ReminderCollision("meeting " + index, sendAt, first, second);
    }
}
