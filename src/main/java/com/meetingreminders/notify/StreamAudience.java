package com.meetingreminders.notify;

import com.meetingreminders.timer.ReminderKeys;
import com.meetingreminders.timer.TopicSubscription;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Whether any replica may have a stream client, so that a delivering replica publishes its rounds' announcements only
 * then. A replica listens on the delivered channel only while it has stream clients ({@link StreamChannel}), so a
 * publish that no one received says that no one listens; from then on announcements are skipped, until a replica says
 * that it has started listening. Whatever this replica may have missed (its subscription to those sayings was lost
 * and made again) counts as someone listening: an announcement too many costs a publish, one too few a client's event.
 */
@ApplicationScoped
class StreamAudience {

    private final RTopic listeners;
    /** How many times a replica was heard starting to listen: a publish's "no one" is stale once this moved. */
    private final AtomicLong joins = new AtomicLong();

    /** Guards a publish's "no one" against a join heard at the same moment. */
    private final Object belief = new Object();

    private volatile boolean maybeAnyone = true;
    /** Whether the sayings are heard now; guarded by the belief's lock. Until they are, someone may listen. */
    private boolean hearing;

    private TopicSubscription subscription;

    @Inject
    StreamAudience(RedissonClient redis, ReminderKeys keys) {
        this(redis.getTopic(keys.streamListenersChannel(), StringCodec.INSTANCE));
    }

    /** On the channel {@code listeners}, where replicas say that they have started listening. */
    StreamAudience(RTopic listeners) {
        this.listeners = listeners;
    }

    /** Hears the other replicas start listening; safe to call again after a failure. */
    synchronized void subscribe() {
        if (subscription == null) {
            subscription = TopicSubscription.to(listeners, this::hearing, this::deaf, replica -> someoneJoined());
            hearing();
        }
    }

    synchronized boolean isSubscribed() {
        return subscription != null;
    }

    synchronized void unsubscribe() {
        if (subscription != null) {
            subscription.close();
            subscription = null;
        }
        deaf();
    }

    /**
     * This replica has just started listening on the delivered channel: every replica publishes again once it has
     * heard this. Completes when Redis has taken the saying.
     */
    CompletableFuture<Long> joined() {
        return listeners
                .publishAsync("")
                .whenComplete((receivers, error) -> {
                    if (error != null) {
                        Log.debugf("Could not say that this replica listens to the stream: %s", error.getMessage());
                    }
                })
                .toCompletableFuture();
    }

    /** This replica has started listening: it announces again at once, without waiting to hear itself say so. */
    void listensHere() {
        someoneJoined();
    }

    /**
     * Before a publish: {@code -1} if no one listens (skip it), else what to pass to {@link #published} with the
     * number of its receivers.
     */
    long beforePublish() {
        return maybeAnyone ? joins.get() : -1;
    }

    /**
     * A publish that began at {@code ticket} reached {@code receivers}. None means no replica listened when Redis
     * took it, unless a replica said it started listening since: its saying may have overtaken this answer.
     */
    void published(long ticket, long receivers) {
        if (receivers == 0) {
            synchronized (belief) {
                if (hearing && joins.get() == ticket) {
                    maybeAnyone = false;
                }
            }
        }
    }

    private void someoneJoined() {
        synchronized (belief) {
            joins.incrementAndGet();
            maybeAnyone = true;
        }
    }

    /** Subscribed, at first or again: whatever was said meanwhile went unheard. */
    private void hearing() {
        synchronized (belief) {
            hearing = true;
            someoneJoined();
        }
    }

    private void deaf() {
        synchronized (belief) {
            hearing = false;
            someoneJoined();
        }
    }
}
