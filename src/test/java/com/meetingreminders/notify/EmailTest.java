package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.HeldPort;
import com.meetingreminders.support.MailServer;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.QuickSmtp;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.TestServers;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.mailer.Mail;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** E-mail is on for this class alone, through a real SMTP server of its own (MailServer). */
@QuarkusTest
@QuarkusTestResource(value = MailServer.class, restrictToAnnotatedClass = true)
class EmailTest {

    @TestServers.Injected
    GreenMail smtp;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Inject
    MailHandOver handOver;

    @Test
    void eachAttendeeGetsOneMessageWithTheStartInTheMeetingsTimeZone() throws Exception {
        // 09:00 in Shanghai is 01:00 UTC: the message must show the local time.
        ZonedDateTime shanghai = Moments.now()
                .plus(Duration.ofDays(1))
                .atZone(ZoneId.of("Asia/Shanghai"))
                .withHour(9)
                .withMinute(0)
                .truncatedTo(ChronoUnit.MINUTES);
        Instant startsAt = shanghai.toInstant();
        // The reminder is due in two seconds: remindBefore is what is left until the start, less two seconds.
        Duration before =
                Duration.between(Moments.now().plusSeconds(2), startsAt).truncatedTo(ChronoUnit.SECONDS);
        List<String> attendees = List.of("ann@example.com", "bo@example.org", "cy@example.net");
        String id = Api.create(meeting()
                        .title("Quarterly review")
                        .startsAt(startsAt)
                        .timeZone("Asia/Shanghai")
                        .remindBefore(before.toString())
                        .attendees(attendees.toArray(String[]::new))
                        .webhookUrl(receiver.url("/mail")))
                .getString("id");
        String deliveryId = Api.deliveryId(id, startsAt.minus(before));

        await().atMost(Duration.ofSeconds(8))
                .until(() -> "DELIVERED".equals(Api.onlyReminder(id).get("status")));
        List<MimeMessage> ours = messagesOf(deliveryId);
        Map<String, MimeMessage> byRecipient =
                ours.stream().collect(Collectors.toMap(EmailTest::recipient, Function.identity()));
        assertThat(ours).hasSize(3);
        assertThat(byRecipient.keySet()).containsExactlyInAnyOrderElementsOf(attendees);
        for (MimeMessage message : ours) {
            assertThat(message.getSubject()).isEqualTo("Reminder: Quarterly review at 09:00 (Asia/Shanghai)");
            String content = GreenMailUtil.getBody(message);
            String day =
                    shanghai.getDayOfWeek().getDisplayName(java.time.format.TextStyle.FULL, java.util.Locale.ENGLISH);
            assertThat(content)
                    .contains("text/plain")
                    .contains("text/html")
                    .contains(day + " " + shanghai.getDayOfMonth())
                    .contains("09:00 (Asia/Shanghai)");
        }
        assertThat(receiver.on("/mail")).hasSize(1);
    }

    @Test
    void aMailServerThatIsDownFailsTheReminderWithoutResendingTheWebhook() {
        smtp.stop();
        try {
            Instant startsAt = Moments.now().plusSeconds(2);
            String id = Api.create(meeting()
                            .startsAt(startsAt)
                            .remindBefore("PT1S")
                            .attendees("dee@example.com")
                            .webhookUrl(receiver.url("/mail-down")))
                    .getString("id");

            await().atMost(Duration.ofSeconds(8))
                    .until(() -> "FAILED".equals(Api.onlyReminder(id).get("status")));
            Map<String, Object> reminder = Api.onlyReminder(id);
            assertThat(reminder).containsEntry("attempts", 3);
            assertThat((String) reminder.get("lastError")).startsWith("e-mail to dee@example.com: ");
            // The webhook took the first attempt; the retries were for the e-mail alone.
            assertThat(receiver.on("/mail-down")).hasSize(1);
        } finally {
            smtp.start();
        }
    }

    @Test
    void aMailServerThatHangsGetsOneMessageAnAttendeeAndNoneThatFoundNoConnectionInTime() {
        int port = smtp.getSmtp().getPort();
        GreenMail behind = new GreenMail(new ServerSetup(Replica.freePort(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        behind.start();
        smtp.stop();
        try (HeldPort hanging = HeldPort.on(port, behind.getSmtp().getPort())) {
            List<String> attendees =
                    List.of("held-1@example.com", "held-2@example.com", "held-3@example.com", "held-4@example.com");
            // Due in two seconds; the meeting starts two minutes later, so that the retry below is never too late.
            Instant startsAt = Moments.now().plusSeconds(120);
            String id = Api.create(meeting()
                            .startsAt(startsAt)
                            .remindBefore("PT118S")
                            .attendees(attendees.toArray(String[]::new))
                            .webhookUrl(receiver.url("/held")))
                    .getString("id");
            Map<String, Object> reminder = Api.onlyReminder(id);
            String sendAt = reminder.get("sendAt").toString();
            String deliveryId = Api.deliveryId(id, Instant.parse(sendAt));

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "FAILED".equals(Api.onlyReminder(id).get("status")));
            assertThat((String) Api.onlyReminder(id).get("lastError")).startsWith("e-mail to held-");
            // The mailer's two connections each took one message; the later attempts waited for those two copies.
            assertThat(hanging.taken()).isEqualTo(2);
            assertThat(withServer()).as("e-mails with the mail server").isEqualTo(2);

            hanging.release();
            await().atMost(Duration.ofSeconds(30)).until(hanging::allEnded);
            assertThat(messagesOf(behind, deliveryId)).hasSize(2);
            await().atMost(Duration.ofSeconds(10)).until(() -> withServer() == 0);

            // What went out late counts as reached: the retry sends the other two, and only them.
            given().post("/meetings/" + id + "/reminders/" + sendAt + "/retry")
                    .then()
                    .statusCode(202);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "DELIVERED".equals(Api.onlyReminder(id).get("status")));
            assertThat(messagesOf(behind, deliveryId).stream().map(EmailTest::recipient))
                    .containsExactlyInAnyOrderElementsOf(attendees);
            assertThat(receiver.on("/held")).hasSize(1);
        } finally {
            behind.stop();
            smtp.start();
        }
    }

    @Test
    void everyMessageHandedOverReachesAServerThatAnswersAtOnce() throws Exception {
        // Each connection closes after its message here (keep-alive off), so the mailer's pool empties and fills again
        // all the time: rounds of three on two connections hand a message over as another's connection closes. Handed
        // over on a thread of its own, Vert.x's SMTP client lost one such message in the first few hundred rounds.
        int port = smtp.getSmtp().getPort();
        smtp.stop();
        try (QuickSmtp quick = QuickSmtp.on(port)) {
            List<String> sent = new ArrayList<>();
            for (int round = 0; round < 500; round++) {
                List<String> to = IntStream.range(0, 3)
                        .mapToObj(i -> "round-" + UUID.randomUUID() + "@example.com")
                        .toList();
                List<CompletableFuture<Void>> sends = to.stream()
                        .map(address ->
                                handOver.send(address, Mail.withText(address, "A round", "-"), Duration.ofSeconds(10)))
                        .toList();
                CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
                sent.addAll(to);
            }
            assertThat(quick.recipients()).containsAll(sent).doesNotHaveDuplicates();
        } finally {
            smtp.start();
        }
    }

    /** reminders_email_with_server at /q/metrics. */
    private static double withServer() {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher value =
                Pattern.compile("(?m)^reminders_email_with_server (\\S+)$").matcher(text);
        assertThat(value.find()).as("the gauge is exported").isTrue();
        return Double.parseDouble(value.group(1));
    }

    private List<MimeMessage> messagesOf(String deliveryId) {
        return messagesOf(smtp, deliveryId);
    }

    private static List<MimeMessage> messagesOf(GreenMail smtp, String deliveryId) {
        return Arrays.stream(smtp.getReceivedMessages())
                .filter(message -> deliveryId.equals(header(message, "X-Reminder-Delivery-Id")))
                .toList();
    }

    private static String header(MimeMessage message, String name) {
        try {
            return message.getHeader(name, null);
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String recipient(MimeMessage message) {
        try {
            return message.getRecipients(Message.RecipientType.TO)[0].toString();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }
}
