package com.meetingreminders.notify;

import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The live stream. A client is connected to one replica while any replica may deliver, so the delivering replica
 * publishes each notification (and each failure notice) on a Redis channel and every replica passes what it hears to its own stream clients.
 * It is live only: a client that is not connected, or too slow to keep up, misses events.
 */
@ApplicationScoped
public class StreamChannel implements Channel {

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

    /**
     * A notification, as JSON, for the stream clients of the meeting's owner: delivered (an unnamed event, which SSE
     * clients see as {@code message}), or under an event name such as {@code reminder.failed}.
     */
    public record Announcement(String owner, Optional<String> event, String notification) {

        /** A delivered notification. */
        public Announcement(String owner, String notification) {
            this(owner, Optional.empty(), notification);
        }

        public static Announcement named(String event, String owner, String notification) {
            return new Announcement(owner, Optional.of(event), notification);
        }

        /**
         * One line: the owner URL-encoded (so it holds no space or line break), a space, the event name and a space
         * when there is one, the compact JSON. A name never starts with '{' and the JSON always does, so a delivered
         * notification keeps the line it had before events had names.
         */
        String toLine() {
            return URLEncoder.encode(owner, StandardCharsets.UTF_8) + " "
                    + event.map(name -> name + " ").orElse("") + notification;
        }

        static Announcement ofLine(String line) {
            int space = line.indexOf(' ');
            String owner = URLDecoder.decode(line.substring(0, space), StandardCharsets.UTF_8);
            String rest = line.substring(space + 1);
            if (rest.startsWith("{")) {
                return new Announcement(owner, rest);
            }
            int nameEnds = rest.indexOf(' ');
            return named(rest.substring(0, nameEnds), owner, rest.substring(nameEnds + 1));
        }
    }

    @Override
    public String name() {
        return "stream";
    }

    /** The stream sends nothing while a round is open: what it announces is what the round recorded as delivered. */
    @Override
    public Function<Outgoing, List<Send>> sendsOf(List<Outgoing> round) {
        return outgoing -> List.of();
    }

    @Override
    public void delivered(List<Outgoing> delivered) {
        publish(delivered.stream()
                .map(outgoing -> new Announcement(outgoing.owner(), outgoing.json()))
                .toList());
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
     * What the owner's stream clients get from now on: delivered notifications and named events; a client that falls
     * behind loses events rather than slowing others.
     */
    public Multi<Announcement> announcements(String owner) {
        return clients.onOverflow()
                .drop()
                .filter(announcement -> announcement.owner().equals(owner));
    }

    // The processor takes one item at a time; Redisson may call listeners from several threads.
    private synchronized void toClients(String round) {
        for (String line : round.split("\n")) {
            clients.onNext(Announcement.ofLine(line));
        }
    }
}
