package com.meetingreminders.notify;

import com.meetingreminders.config.RemindersConfig;
import io.quarkus.logging.Log;
import io.quarkus.mailer.Mail;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * E-mail to attendees, through Quarkus Mailer (the SMTP server and sender are the {@code quarkus.mailer.*} settings),
 * on when {@code reminders.email.enabled}. Each attendee gets a message of their own, plain text and HTML, with the
 * start time in the meeting's time zone. Sends are non-blocking and bounded by {@code reminders.email.timeout}.
 */
@ApplicationScoped
@Priority(EmailChannel.PRIORITY)
public class EmailChannel implements Channel {

    /** After the webhook: sends start, and {@code sent_to} and errors list them, in the order of the channels. */
    static final int PRIORITY = 10;

    /** What {@code sent_to} records before each attendee's address. */
    public static final String RECIPIENT = "email:";

    private static final DateTimeFormatter LOCAL_START =
            DateTimeFormatter.ofPattern("EEEE d MMMM uuuu, HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter LOCAL_TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ENGLISH);

    private final MailHandOver handOver;
    private final Template text;
    private final Template html;
    private final boolean enabled;
    private final Duration timeout;

    EmailChannel(
            MailHandOver handOver,
            @Location("reminder.txt") Template text,
            @Location("reminder.html") Template html,
            RemindersConfig config) {
        this.handOver = handOver;
        this.text = text;
        this.html = html;
        this.enabled = config.email().enabled();
        this.timeout = config.email().timeout();
    }

    @Override
    public String name() {
        return "email";
    }

    /** Its timeout while e-mail is on; it sends nothing otherwise. */
    @Override
    public Duration longestSend() {
        return enabled ? timeout : Duration.ZERO;
    }

    /** An e-mail to each attendee not reached yet, when e-mail is on; the message is composed once for them all. */
    @Override
    public Function<Outgoing, List<Send>> sendsOf(List<Outgoing> round) {
        return outgoing -> {
            if (!enabled) {
                return List.of();
            }
            List<String> unreached = outgoing.notification().attendees().stream()
                    .filter(attendee -> !outgoing.hasReached(RECIPIENT + attendee))
                    .toList();
            if (unreached.isEmpty()) {
                return List.of();
            }
            Optional<Message> message = composed(outgoing.notification());
            return unreached.stream()
                    .map(attendee -> new Send(
                            RECIPIENT + attendee,
                            () -> send(attendee, message.orElseThrow()),
                            "e-mail to " + attendee + ": the message could not be made"))
                    .toList();
        };
    }

    /** A reminder's message, the same for every attendee: composed once, sent to each. */
    record Message(String deliveryId, String subject, String text, String html) {}

    /** The message every attendee gets; empty if it cannot be made, and then each e-mail send fails. */
    private Optional<Message> composed(Notification notification) {
        try {
            return Optional.of(compose(notification));
        } catch (RuntimeException e) {
            Log.warnf(e, "The e-mail of reminder %s could not be composed", notification.deliveryId());
            return Optional.empty();
        }
    }

    /** Renders the reminder's message, with the start in the meeting's time zone. */
    private Message compose(Notification notification) {
        ZoneId zone = ZoneId.of(notification.timeZone());
        ZonedDateTime start = notification.startsAt().atZone(zone);
        String localStart = LOCAL_START.format(start) + " (" + zone.getId() + ")";
        // Titles with line breaks are refused on input; one stored before that rule must still not reach a header.
        String title = notification.title().replaceAll("[\\p{Cc}\\u2028\\u2029]", " ");
        String subject = "Reminder: " + title + " at " + LOCAL_TIME.format(start) + " (" + zone.getId() + ")";
        return new Message(
                notification.deliveryId(),
                subject,
                render(text, notification, localStart),
                render(html, notification, localStart));
    }

    /** Sends the message to one attendee; the future fails with a {@link DeliveryFailure} that names them. */
    private CompletableFuture<Void> send(String attendee, Message message) {
        Mail mail = Mail.withText(attendee, message.subject(), message.text())
                .setHtml(message.html())
                .addHeader("X-Reminder-Delivery-Id", message.deliveryId());
        return handOver.send(message.deliveryId() + " " + attendee, mail, timeout)
                .exceptionally(error -> {
                    Throwable cause = error.getCause() != null ? error.getCause() : error;
                    // lastError is for the meeting's owner; what the server said is for the operator.
                    Log.infof("E-mail to %s not sent: %s", attendee, cause);
                    throw new DeliveryFailure("e-mail to " + attendee + ": " + describe(cause));
                });
    }

    private static String render(Template template, Notification notification, String localStart) {
        return template.data("title", notification.title())
                .data("localStart", localStart)
                .data("remindBefore", notification.remindBefore())
                .data("deliveryId", notification.deliveryId())
                .render();
    }

    private String describe(Throwable cause) {
        if (cause instanceof MailHandOver.NoFreeConnection) {
            return "no connection to the mail server was free within " + timeout.toMillis() + "ms";
        }
        if (cause instanceof java.util.concurrent.TimeoutException) {
            return "no answer from the mail server within " + timeout.toMillis() + "ms";
        }
        return cause instanceof java.net.ConnectException
                ? "could not connect to the mail server"
                : "the mail server did not take the message";
    }
}
