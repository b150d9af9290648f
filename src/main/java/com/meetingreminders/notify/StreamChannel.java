package com.meetingreminders.notify;

import com.meetingreminders.timer.ReminderKeys;
import com.meetingreminders.timer.TopicSubscription;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import io.smallrye.mutiny.subscription.BackPressureFailure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.PlainOptions;
import org.redisson.client.codec.StringCodec;

/**
 * The live stream. A client is connected to one replica while any replica may deliver, so the delivering replica
 * publishes each notification (and each failure notice) on a Redis channel and every replica with stream clients
 * passes what it hears to its own. A replica listens on that channel only while it has stream clients, and a
 * delivering replica publishes only while some replica may listen ({@link StreamAudience}): without stream clients a
 * round announces nothing. It is live only: a client that is not connected misses events, and one that falls
 * {@link #CLIENT_BACKLOG} behind has its stream ended.
 */
@ApplicationScoped
public class StreamChannel implements Channel {

    /** Announcements a client may have waiting to be written: ten full delivery rounds at the default batch size. */
    static final int CLIENT_BACKLOG = 1_000;

    private final RTopic listened;
    /**
     * The same channel, for publishing only: a publish is sent at most once, never again after any failure. Redisson
     * sends a call again after its timeout, and Redis that only hung runs both once it resumes, so that every stream
     * client got the round twice. A publish that timed out may still arrive, once; one that failed is lost to the
     * stream, which is live only.
     */
    private final RTopic announcing;

    private final StreamAudience audience;
    private final BroadcastProcessor<Announcement> clients = BroadcastProcessor.create();
    /** Stream clients connected to this replica; guarded by this. */
    private int clientCount;

    /** Set under this object's monitor; read without it by {@link #stillListening}. */
    private volatile TopicSubscription listening;

    StreamChannel(RedissonClient redis, ReminderKeys keys, StreamAudience audience) {
        this.listened = redis.getTopic(keys.deliveredChannel(), StringCodec.INSTANCE);
        this.announcing = redis.getTopic(PlainOptions.name(keys.deliveredChannel())
                .codec(StringCodec.INSTANCE)
                .retryAttempts(0));
        this.audience = audience;
    }

    /**
     * Hears which replicas listen, and listens itself if it has stream clients; safe to call again after a failure
     * (a client that connected while Redis was away gets its listener here).
     */
    public synchronized void subscribe() {
        audience.subscribe();
        if (clientCount > 0) {
            listen();
        }
    }

    /**
     * Says again that this replica listens, if it does: a saying lost on its way (Redis restarting, a failover) would
     * otherwise leave a replica that found no one listening silent towards this one's clients. Never blocks.
     */
    public void stillListening() {
        if (listening != null) {
            audience.joined();
        }
    }

    public synchronized boolean isSubscribed() {
        return audience.isSubscribed() && (clientCount == 0 || listening != null);
    }

    public synchronized void unsubscribe() {
        stopListening();
        audience.unsubscribe();
    }

    /**
     * A stream client connected: listen from now on, if this replica did not already. Blocks on Redis, unless the last
     * try failed: then the client's stream opens at once, and subscribe() listens once Redis is back, rather than every
     * client connecting meanwhile waiting for Redis in turn.
     */
    private synchronized void clientConnected() {
        // Clients here but no listening: the try for the first of them failed.
        boolean lastTryFailed = clientCount > 0 && listening == null;
        clientCount++;
        if (lastTryFailed) {
            return;
        }
        try {
            listen();
        } catch (RuntimeException e) {
            Log.debugf("Could not listen to the stream's channel yet: %s", e.getMessage());
        }
    }

    /** On a worker: a stream ends on an event loop, which must not wait for a client connecting meanwhile. */
    private void clientLeft(AtomicBoolean left) {
        if (left.getAndSet(true)) {
            return;
        }
        try {
            Infrastructure.getDefaultWorkerPool().execute(() -> {
                synchronized (this) {
                    clientCount--;
                    if (clientCount == 0) {
                        stopListening();
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // The replica is stopping: its subscriptions end with it.
        }
    }

    private void listen() {
        if (listening == null) {
            // Made again after a reconnect: a replica that found no one listening meanwhile publishes again.
            TopicSubscription made = TopicSubscription.to(listened, audience::joined, () -> {}, this::toClients);
            try {
                // Said before the client's stream starts: replicas that had stopped publishing start again as soon as
                // they hear it, a moment later, and this one at once.
                audience.joined().join();
            } catch (RuntimeException e) {
                // Not listening until it is said: subscribe() tries both again.
                made.close();
                throw e;
            }
            audience.listensHere();
            listening = made;
        }
    }

    private void stopListening() {
        if (listening != null) {
            listening.close();
            listening = null;
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
     * round, an announcement a line. Completes with whether it was published (none is while no replica listens) once
     * Redis has taken it; a failure is logged, never thrown: the stream is live only.
     */
    public CompletableFuture<Boolean> publish(List<Announcement> announcements) {
        long ticket = audience.beforePublish();
        if (announcements.isEmpty() || ticket < 0) {
            return CompletableFuture.completedFuture(false);
        }
        String round = announcements.stream().map(Announcement::toLine).collect(Collectors.joining("\n"));
        return announcing
                .publishAsync(round)
                .handle((receivers, error) -> {
                    if (error != null) {
                        Log.debugf("A delivery was not announced on the stream: %s", error.getMessage());
                        return false;
                    }
                    audience.published(ticket, receivers);
                    return true;
                })
                .toCompletableFuture();
    }

    /**
     * What the owner's stream client gets from now on: delivered notifications and named events. Each client has a
     * backlog of its own: a round announces its deliveries together, faster than a connection writes them, and a
     * client that took only what it had asked for got the first of a round and lost the rest. A client that falls
     * {@link #CLIENT_BACKLOG} behind has its stream ended rather than slowing others or holding their memory; it may
     * connect again. This replica listens from before this returns (or, while Redis is away, from when it is back)
     * until the client's stream ends. Blocks on Redis.
     */
    public Multi<Announcement> announcements(String owner) {
        clientConnected();
        AtomicBoolean left = new AtomicBoolean();
        return clients.filter(announcement -> announcement.owner().equals(owner))
                .onOverflow()
                .buffer(CLIENT_BACKLOG)
                .onFailure(BackPressureFailure.class)
                .recoverWithMulti(fellBehind -> {
                    Log.infof("A stream client fell %d events behind; its stream ends", CLIENT_BACKLOG);
                    return Multi.createFrom().empty();
                })
                .onTermination()
                .invoke(() -> clientLeft(left));
    }

    // The processor takes one item at a time; Redisson may call listeners from several threads. Not under this
    // object's monitor, which a client connecting holds while it waits for Redis, whose threads call this.
    private void toClients(String round) {
        synchronized (clients) {
            for (String line : round.split("\n")) {
                clients.onNext(Announcement.ofLine(line));
            }
        }
    }
}
