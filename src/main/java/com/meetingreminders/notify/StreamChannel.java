package com.meetingreminders.notify;

import com.meetingreminders.reminder.ReminderKeys;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The live stream. A client is connected to one replica while any replica may deliver, so the delivering replica
 * publishes each notification on a Redis channel and every replica passes what it hears to its own stream clients.
 * It is live only: a client that is not connected, or too slow to keep up, misses events.
 */
@ApplicationScoped
public class StreamChannel {

    private final RTopic delivered;
    private final BroadcastProcessor<String> clients = BroadcastProcessor.create();
    private Integer listenerId;

    StreamChannel(RedissonClient redis, ReminderKeys keys) {
        this.delivered = redis.getTopic(keys.deliveredChannel(), StringCodec.INSTANCE);
    }

    /** Subscribes unless already subscribed; safe to call again after a failure. */
    public synchronized void subscribe() {
        if (listenerId == null) {
            listenerId = delivered.addListener(String.class, (channel, round) -> toClients(round.split("\n")));
        }
    }

    public synchronized boolean isSubscribed() {
        return listenerId != null;
    }

    public synchronized void unsubscribe() {
        if (listenerId != null) {
            delivered.removeListener(listenerId);
            listenerId = null;
        }
    }

    /**
     * Announces delivered notifications, given as their JSON, to the stream clients of every replica: one message for
     * a whole delivery round, a notification a line (compact JSON holds no line break).
     */
    public void publish(List<String> notifications) {
        if (notifications.isEmpty()) {
            return;
        }
        delivered.publishAsync(String.join("\n", notifications)).whenComplete((receivers, error) -> {
            if (error != null) {
                Log.debugf("A delivery was not announced on the stream: %s", error.getMessage());
            }
        });
    }

    /** The notifications delivered from now on; a client that falls behind loses events rather than slowing others. */
    public Multi<String> notifications() {
        return clients.onOverflow().drop();
    }

    // The processor takes one item at a time; Redisson may call listeners from several threads.
    private synchronized void toClients(String[] notifications) {
        for (String notification : notifications) {
            clients.onNext(notification);
        }
    }
}
