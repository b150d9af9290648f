package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.EventStream;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.RedisMonitor;
import com.meetingreminders.support.ReplicaPair;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The stream across two packaged replicas: with no stream client anywhere the replicas stop announcing (as the
 * machine's Redis sees it), and a client that then connects to one of them gets what either delivers from then on.
 */
class StreamAcrossReplicasIT {

    private static final int EACH = 10;

    /** Far enough apart that each reminder goes out in a round of its own. */
    private static final Duration APART = Duration.ofMillis(500);

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void aClientOnOneReplicaGetsWhatEitherDeliversAfterNoOneListened() {
        try (ReplicaPair replicas = ReplicaPair.start(database, keys.prefix());
                RedisMonitor publishes = RedisMonitor.start("publish")) {
            // No client anywhere. A round of its own for each reminder: a replica announces in its first round,
            // hears that no one received it, and announces no more.
            Instant first = LeadTime.fromNow(LeadTime.toCreate(EACH, 2, () -> IntStream.range(0, 2)
                    .forEach(i -> replicas.inTurn(i).create(dueAt(Moments.now().plusSeconds(3600), "/probe")))));
            List<String> unheard = IntStream.range(0, EACH)
                    .mapToObj(i -> replicas.inTurn(i).create(dueAt(first.plus(APART.multipliedBy(i)), "/unheard")))
                    .toList();
            LeadTime.requireBefore(first);
            await().atMost(LeadTime.until(first, Duration.ofSeconds(30)))
                    .until(() -> receiver.on("/unheard").size() == EACH);

            List<String> heard;
            try (EventStream stream =
                    EventStream.connect(URI.create(replicas.b().url("/reminders/stream")), Tokens.DEFAULT_CALLER)) {
                heard = IntStream.range(0, EACH)
                        .mapToObj(i -> replicas.inTurn(i).create(dueAt(Moments.now(), "/heard")))
                        .toList();

                await().atMost(Duration.ofSeconds(20))
                        .until(() -> receiver.on("/heard").size() == EACH);
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(heard)
                        .allSatisfy(id -> assertThat(stream.about(id)).hasSize(1)));
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(heard)
                    .as("each announced through Redis")
                    .allSatisfy(id -> assertThat(publishes.commands())
                            .anyMatch(publish -> publish.line().contains(id))));
            // In the order Redis ran them: a round of the unheard that published only after B said that it listens
            // (on ReminderKeys.streamListenersChannel()) had every reason to.
            List<RedisMonitor.Command> inOrder = publishes.commands();
            int listening = IntStream.range(0, inOrder.size())
                    .filter(i -> inOrder.get(i).line().contains(keys.prefix() + "stream-listeners"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("No replica said that it listens: " + inOrder));
            Map<String, Long> announcedWhileNoOneListened = inOrder.subList(0, listening).stream()
                    .filter(publish -> unheard.stream().anyMatch(publish.line()::contains))
                    .collect(Collectors.groupingBy(publish -> sender(replicas, publish), Collectors.counting()));
            assertThat(announcedWhileNoOneListened.keySet()).isSubsetOf("a", "b");
            // Each replica's first announcement to no one, in whichever round it delivers first, is answered "no
            // receivers", and from then on it announces no more until a replica says that it listens. Its next round
            // is at least 500 ms later (APART): two leave room for one answer that a loaded machine delays past that,
            // where a replica that never stopped would announce each it delivers, of ten between the two.
            assertThat(announcedWhileNoOneListened)
                    .as("announcements while no one listened, by replica: its first, and one more at the most")
                    .allSatisfy((replica, count) -> assertThat(count).isLessThanOrEqualTo(2));
        }
    }

    /** Which replica sent the command, by the name of its Redis client (README: "Replicas"). */
    private static String sender(ReplicaPair replicas, RedisMonitor.Command command) {
        if (replicas.a().ownsRedisClient(command.client())) {
            return "a";
        }
        return replicas.b().ownsRedisClient(command.client()) ? "b" : "a client named '" + command.client() + "'";
    }

    /** A meeting whose one reminder is due at {@code sendAt}. */
    private MeetingBody dueAt(Instant sendAt, String path) {
        return meeting().startsAt(sendAt.plusSeconds(60)).remindBefore("PT1M").webhookUrl(receiver.url(path));
    }
}
