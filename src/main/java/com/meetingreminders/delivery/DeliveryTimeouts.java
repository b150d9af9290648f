package com.meetingreminders.delivery;

import com.meetingreminders.notify.Channel;
import io.quarkus.arc.All;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * How long a delivery round may take, derived in this one place from the longest timeout of the channels it sends
 * on (each {@link Channel#longestSend()}: the webhook's, and the e-mail's when e-mail is on). The round's
 * transaction, the wait for its sends, a stopping replica's grace and the lease it should have all follow from it.
 */
@ApplicationScoped
public class DeliveryTimeouts {

    /**
     * What a round needs beyond its sends: locking its rows before them, recording and committing after them, and the
     * wait for a delivery worker in between, which a burst of rounds lengthens.
     */
    static final Duration DATABASE_WORK = Duration.ofSeconds(5);

    /** Each channel ends its own sends at its timeout; this covers their timers firing late on a busy machine. */
    private static final Duration TIMER_SLACK = Duration.ofSeconds(1);

    private final Duration longestSend;

    DeliveryTimeouts(@All List<Channel> channels) {
        this.longestSend = channels.stream()
                .map(Channel::longestSend)
                .max(Duration::compareTo)
                .orElse(Duration.ZERO);
    }

    /** The longest one send of a round may take: the longest timeout of the channels in use. */
    Duration longestSend() {
        return longestSend;
    }

    /** How long a round waits for its sends before it counts those still out as failed; they never should be. */
    Duration sendsWait() {
        return longestSend.plus(TIMER_SLACK);
    }

    /**
     * The longest a round's transaction lasts, its row locks held: the database ends a round's session that stays
     * idle in its transaction longer than this.
     */
    Duration transaction() {
        return longestSend.plus(DATABASE_WORK);
    }

    /**
     * How long a stopping replica waits for its rounds under way and its background pools, after SIGTERM: as long as
     * a round may take, so that every round started finishes and records its outcome.
     */
    Duration shutdownGrace() {
        return transaction();
    }
}
