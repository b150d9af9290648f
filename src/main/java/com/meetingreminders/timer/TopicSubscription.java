package com.meetingreminders.timer;

import io.quarkus.logging.Log;
import java.util.function.Consumer;
import org.redisson.api.RTopic;
import org.redisson.api.listener.BaseStatusListener;

/**
 * Listening on one Redis channel, with word of each time the subscription is made (at first, and again after a
 * reconnect, when whatever was published meanwhile went unheard) and lost. Its two listeners come and go together.
 */
public final class TopicSubscription {

    private final RTopic topic;
    private final int statusListener;
    private final int messageListener;

    private TopicSubscription(RTopic topic, int statusListener, int messageListener) {
        this.topic = topic;
        this.statusListener = statusListener;
        this.messageListener = messageListener;
    }

    /**
     * Subscribes, blocking on Redis until it holds: {@code subscribed} runs each time the subscription is made,
     * {@code lost} each time Redis confirms it has ended (and once if it fails half made), {@code messages} for each
     * message. All three run on Redisson's threads and must not block.
     */
    public static TopicSubscription to(RTopic topic, Runnable subscribed, Runnable lost, Consumer<String> messages) {
        int status = topic.addListener(new BaseStatusListener() {
            @Override
            public void onSubscribe(String channel) {
                subscribed.run();
            }

            @Override
            public void onUnsubscribe(String channel) {
                lost.run();
            }
        });
        try {
            return new TopicSubscription(
                    topic, status, topic.addListener(String.class, (channel, message) -> messages.accept(message)));
        } catch (RuntimeException e) {
            topic.removeListenerAsync(status);
            // Half made: the status listener may already have said it is subscribed.
            lost.run();
            throw e;
        }
    }

    /** Stops listening, without waiting for Redis: a subscription made next on the topic waits in line behind it. */
    public void close() {
        topic.removeListenerAsync(messageListener, statusListener).whenComplete((removed, error) -> {
            if (error != null) {
                Log.warnf("Could not stop listening on %s: %s", topic.getChannelNames(), error.getMessage());
            }
        });
    }
}
