package com.meetingreminders.notify;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One way a reminder reaches people; a bean of this type is all a new channel takes. A delivery round asks every
 * channel, highest {@code @Priority} first, for the sends each of its reminders owes it, starts them, and once the
 * round has committed tells every channel what was delivered.
 */
public interface Channel {

    /** The channel's name in the metrics and the delivery log: {@code webhook}, {@code email}. */
    String name();

    /**
     * The sends each of a round's reminders owes this channel, not started yet: none for a reminder it has nothing for,
     * or whose recipients earlier attempts reached. What the whole round needs is read here, once.
     */
    Function<Outgoing, List<Send>> sendsOf(List<Outgoing> round);

    /**
     * The longest one of its sends may take: the channel ends a send itself by then. A round waits for its sends, and
     * holds its transaction, for the longest of every channel's. Zero for a channel that sends nothing within a round.
     */
    default Duration longestSend() {
        return Duration.ZERO;
    }

    /** The round has committed: these reminders reached every recipient. */
    default void delivered(List<Outgoing> delivered) {}

    /**
     * One send to one recipient, named as {@code sent_to} records it ({@code webhook}, {@code email:<address>}).
     * {@code start} may throw: the send then fails with {@code ifStartFails}, and counts as an attempt.
     */
    record Send(String recipient, Supplier<CompletableFuture<Void>> start, String ifStartFails) {}
}
