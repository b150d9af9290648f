package com.meetingreminders.notify;

import com.meetingreminders.reminder.ReminderKeys;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
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
    private final BroadcastProcessor<Announcement> clients = BroadcastProcessor.create();
    private Integer listenerId;

    StreamChannel(RedissonClient redis, ReminderKeys keys) {
        this.delivered = redis.getTopic(keys.deliveredChannel(), StringCodec.INSTANCE);
    }

    /** Subscribes unless already subscribed; safe to call again after a failure. */
    public synchronized void subscribe() {
        if (listenerId == null) {
            listenerId = delivered.addListener(String.class, (channel, round) -> toClients(round));
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

    /** A delivered notification, as JSON, for the stream clients of the meeting's owner. */
    public record Announcement(String owner, String notification) {

        /** One line: the owner URL-encoded (so it holds no space or line break), a space, the compact JSON. */
        String toLine() {
            return URLEncoder.encode(owner, StandardCharsets.UTF_8) + " " + notification;
        }

        static Announcement ofLine(String line) {
            int space = line.indexOf(' ');
            return new Announcement(
                    URLDecoder.decode(line.substring(0, space), StandardCharsets.UTF_8), line.substring(space + 1));
        }
    }

    /**
     * Announces delivered notifications to the stream clients of every replica: one message for a whole delivery
     * round, an announcement a line.
     */
    public void publish(List<Announcement> announcements) {
        if (announcements.isEmpty()) {
            return;
        }
        String round = announcements.stream().map(Announcement::toLine).collect(Collectors.joining("\n"));
        delivered.publishAsync(round).whenComplete((receivers, error) -> {
            if (error != null) {
                Log.debugf("A delivery was not announced on the stream: %s", error.getMessage());
            }
        });
    }

    /**
     * The notifications of the owner's meetings delivered from now on; a client that falls behind loses events rather
     * than slowing others.
     */
    public Multi<String> notifications(String owner) {
        return clients.onOverflow()
                .drop()
                .filter(announcement -> announcement.owner().equals(owner))
                .map(Announcement::notification);
    }

    // The processor takes one item at a time; Redisson may call listeners from several threads.
    private synchronized void toClients(String round) {
        for (String line : round.split("\n")) {
            clients.onNext(Announcement.ofLine(line));
        }
    }
}
