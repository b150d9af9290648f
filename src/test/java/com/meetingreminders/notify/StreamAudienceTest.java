package com.meetingreminders.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * When a replica stops and starts announcing, on the real Redis: two audiences on a channel of their own stand for two
 * replicas, out of the way of the application's own deliveries.
 */
@QuarkusTest
class StreamAudienceTest {

    @Inject
    RedissonClient redis;

    private StreamAudience here;
    private StreamAudience there;

    @BeforeEach
    void twoReplicas() {
        String channel = "audience-" + UUID.randomUUID();
        here = new StreamAudience(redis.getTopic(channel, StringCodec.INSTANCE));
        there = new StreamAudience(redis.getTopic(channel, StringCodec.INSTANCE));
        here.subscribe();
        there.subscribe();
    }

    @AfterEach
    void unsubscribe() {
        here.unsubscribe();
        there.unsubscribe();
    }

    @Test
    void aPublishNoOneReceivedStopsAnnouncementsUntilAReplicaSaysItListens() {
        assertThat(here.beforePublish())
                .as("someone may listen, until told otherwise")
                .isNotNegative();
        // Its own subscription's confirmation, which counts as a saying, may still be on its way: until it is heard,
        // a publish's "no one" may be stale.
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            here.published(here.beforePublish(), 0);
            return here.beforePublish() < 0;
        });

        there.joined().join();
        await().atMost(Duration.ofSeconds(5)).until(() -> here.beforePublish() >= 0);
    }

    @Test
    void aReplicaThatStartedListeningDuringAPublishKeepsItAnnounced() {
        long ticket = here.beforePublish();
        there.joined().join();
        await().atMost(Duration.ofSeconds(5)).until(() -> here.beforePublish() != ticket);

        // The answer of a publish that Redis took before the other replica listened arrives after its saying.
        here.published(ticket, 0);

        assertThat(here.beforePublish()).as("announcing").isNotNegative();
    }

    @Test
    void aReplicaThatDoesNotHearTheSayingsNeverStopsAnnouncing() {
        StreamAudience deaf = new StreamAudience(redis.getTopic("audience-" + UUID.randomUUID(), StringCodec.INSTANCE));

        deaf.published(deaf.beforePublish(), 0);

        assertThat(deaf.beforePublish())
                .as("announcing: it would not hear a replica start listening")
                .isNotNegative();
    }

    @Test
    void aReplicaThatStartsListeningAnnouncesAgainAtOnce() {
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            here.published(here.beforePublish(), 0);
            return here.beforePublish() < 0;
        });

        here.listensHere();

        assertThat(here.beforePublish()).isNotNegative();
    }
}
