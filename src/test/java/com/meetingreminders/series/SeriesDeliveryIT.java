package com.meetingreminders.series;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Figures;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.ReplicaPair;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Daily series whose first occurrence is moments away, created through two packaged replicas: the first occurrence's
 * reminders arrive on time, once each, naming their occurrence, with the deliveryId of a one-off reminder.
 */
class SeriesDeliveryIT {

    private static final int SERIES = 20;

    private static final String[] REMIND_BEFORE = {"PT2S", "PT1S"};

    /** Far above a sweep's interval, far below what a lost reminder would take to come back. */
    private static final Duration ON_TIME = Duration.ofSeconds(5);

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    private final String keyPrefix = keys.prefix();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void deliversTheFirstRemindersOfDailySeriesOnceEachThroughTwoReplicas() {
        try (ReplicaPair replicas = ReplicaPair.start(database, keyPrefix)) {
            String path = "/series";
            // Sized from what creating series through these replicas takes here and now (the probe's start an hour
            // later), so that every series exists before its first reminder falls due.
            int probe = 4;
            Duration lead = LeadTime.toCreate(
                    SERIES, probe, () -> IntStream.range(0, probe).parallel().forEach(i -> replicas.inTurn(i)
                            .create(daily().webhookUrl(receiver.url("/probe")))));
            Instant firstSendAt = LeadTime.fromNow(lead);
            Instant firstStart = firstSendAt.plus(Duration.parse(REMIND_BEFORE[0]));
            List<String> ids = IntStream.range(0, SERIES)
                    .parallel()
                    .mapToObj(i -> replicas.inTurn(i)
                            .create(daily().startsAt(firstStart).webhookUrl(receiver.url(path))))
                    .toList();
            LeadTime.requireBefore(firstSendAt);

            await().atMost(LeadTime.until(firstStart, Duration.ofSeconds(30)))
                    .until(() -> receiver.deliveryCounts().keySet().stream()
                                    .filter(id -> ids.stream().anyMatch(id::startsWith))
                                    .count()
                            >= due());
            // A second delivery of one reminder would race the first: once reminders created after every first
            // delivery have come through both replicas, any such second one would have come too.
            Instant sentinelsAt = LeadTime.fromNow(Duration.ofSeconds(2));
            replicas.a()
                    .create(meeting().startsAt(sentinelsAt).remindBefore("PT1S").webhookUrl(receiver.url("/a")));
            replicas.b()
                    .create(meeting().startsAt(sentinelsAt).remindBefore("PT1S").webhookUrl(receiver.url("/b")));
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            receiver.on("/a").size() == 1 && receiver.on("/b").size() == 1);

            List<Received> received = receiver.on(path);
            Figures figures = Figures.of(due(), received).print("Daily series through two replicas");
            assertThat(figures.delivered()).isEqualTo(due());
            assertThat(figures.duplicates()).isZero();
            assertThat(figures.largestLateness()).isLessThan(ON_TIME);
            assertThat(received).allSatisfy(reminder -> {
                assertThat(reminder.json().path("occurrence").asText()).isEqualTo(firstStart.toString());
                assertThat(reminder.json().path("startsAt").asText()).isEqualTo(firstStart.toString());
                String meetingId = reminder.json().path("meetingId").asText();
                assertThat(reminder.deliveryId()).isEqualTo(Api.deliveryId(meetingId, reminder.sendAt()));
            });
        }
    }

    private static MeetingBody daily() {
        return meeting().with("recurrence", "FREQ=DAILY").remindBefore(REMIND_BEFORE);
    }

    private static int due() {
        return SERIES * REMIND_BEFORE.length;
    }
}
