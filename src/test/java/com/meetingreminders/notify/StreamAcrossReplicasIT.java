package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.EventStream;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.ReplicaPair;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The stream across two packaged replicas: with no stream client anywhere the replicas stop announcing, and a client
 * that then connects to one of them gets what either delivers from then on.
 */
class StreamAcrossReplicasIT {

    private static final int EACH = 10;

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void aClientOnOneReplicaGetsWhatEitherDeliversAfterNoOneListened() {
        try (ReplicaPair replicas = ReplicaPair.start(database, keys.prefix())) {
            // No client anywhere: whichever replica delivers these, no one receives its announcement, and it stops.
            IntStream.range(0, EACH).forEach(i -> replicas.inTurn(i).create(dueNow("/unheard")));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> receiver.on("/unheard").size() == EACH);

            try (EventStream stream =
                    EventStream.connect(URI.create(replicas.b().url("/reminders/stream")), Tokens.DEFAULT_CALLER)) {
                List<String> heard = IntStream.range(0, EACH)
                        .mapToObj(i -> replicas.inTurn(i).create(dueNow("/heard")))
                        .toList();

                await().atMost(Duration.ofSeconds(20))
                        .until(() -> receiver.on("/heard").size() == EACH);
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(heard)
                        .allSatisfy(id -> assertThat(stream.about(id)).hasSize(1)));
            }
        }
    }

    /** A meeting whose one reminder is due at once. */
    private MeetingBody dueNow(String path) {
        return meeting()
                .startsAt(Moments.now().plusSeconds(60))
                .remindBefore("PT2M")
                .webhookUrl(receiver.url(path));
    }
}
