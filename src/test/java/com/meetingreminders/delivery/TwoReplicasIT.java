package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Figures;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.ReplicaPair;
import com.meetingreminders.support.WebhookReceiver;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two packaged replicas as separate processes on one Redis and one database: 1,000 reminders falling due within the
 * same two seconds, created through both (a batch through each), each arrive exactly once.
 */
class TwoReplicasIT {

    private static final int MEETINGS = 100;
    /**
     * Ten distinct remindBefore values 200 ms apart: each meeting's reminders span 1.8 s. They are a minute long, so
     * that a slow creation makes a reminder due at once rather than a meeting in the past.
     */
    private static final String[] REMIND_BEFORE = IntStream.range(0, 10)
            .mapToObj(i -> Duration.ofSeconds(60).plusMillis(200L * i).toString())
            .toArray(String[]::new);

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    private final String keyPrefix = keys.prefix();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void deliversEachOfAThousandRemindersExactlyOnceAcrossTwoReplicas() {
        try (ReplicaPair replicas = ReplicaPair.start(database, keyPrefix)) {
            Replica a = replicas.a();
            Replica b = replicas.b();
            String path = "/two-replicas";
            // Sized from what creating meetings through these replicas takes here and now (the probe's meetings fall
            // due an hour later), so that all exist before the first falls due.
            Duration lead = LeadTime.toCreate(
                    MEETINGS,
                    MEETINGS,
                    () -> replicas.createAll(
                            meetings(i -> meeting().remindBefore(REMIND_BEFORE).webhookUrl(receiver.url("/probe")))));
            Instant firstSendAt = LeadTime.fromNow(lead);
            replicas.createAll(meetings(i -> meeting()
                    .startsAt(firstSendAt.plus(Duration.ofMillis(61_800 + 2L * i)))
                    .remindBefore(REMIND_BEFORE)
                    .webhookUrl(receiver.url(path))));
            LeadTime.requireBefore(firstSendAt);

            await().atMost(LeadTime.until(firstSendAt, Duration.ofSeconds(45)))
                    .until(() -> receiver.deliveryCounts().size() >= due());
            // A second delivery of the same reminder would be racing the first: once reminders created after every
            // first delivery have come through both replicas, any such second delivery would have come too.
            Instant sentinelsAt = Moments.now().plusSeconds(1);
            a.create(meeting()
                    .startsAt(sentinelsAt.plusSeconds(1))
                    .remindBefore("PT1S")
                    .webhookUrl(receiver.url("/a")));
            b.create(meeting()
                    .startsAt(sentinelsAt.plusSeconds(1))
                    .remindBefore("PT1S")
                    .webhookUrl(receiver.url("/b")));
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            receiver.on("/a").size() == 1 && receiver.on("/b").size() == 1);

            Figures figures = Figures.of(due(), receiver.on(path)).print("Two replicas");
            assertThat(figures.delivered()).isEqualTo(due());
            assertThat(figures.duplicates()).isZero();
        }
    }

    private static List<MeetingBody> meetings(IntFunction<MeetingBody> meeting) {
        return IntStream.range(0, MEETINGS).mapToObj(meeting).toList();
    }

    private static int due() {
        return MEETINGS * REMIND_BEFORE.length;
    }
}
