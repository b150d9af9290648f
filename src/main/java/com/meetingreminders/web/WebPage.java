package com.meetingreminders.web;

import com.meetingreminders.admin.Replicas;
import com.meetingreminders.delivery.DeliveryPause;
import com.meetingreminders.http.Problem;
import com.meetingreminders.meeting.ReminderListItem;
import com.meetingreminders.meeting.ReminderService;
import com.meetingreminders.reminder.ReminderStatus;
import com.meetingreminders.security.Caller;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The web page at {@code /} and the HTML fragments its htmx tables load. The page itself holds no data; every
 * fragment is a call like any other, with the bearer token the browser keeps in its session, the same ownership
 * rules and problem+json errors, which the page shows as messages. Qute renders them (the mailer's engine); the
 * answers are plain strings, since the REST integration of Qute is not in our registry.
 */
@Path("/")
@Tag(name = "web page")
public class WebPage {

    /** The page shows what is due from this long ago on: the last hour's deliveries and everything upcoming. */
    private static final Duration RECENT = Duration.ofHours(1);

    private static final int ROWS = 50;

    @CheckedTemplate(basePath = "ui")
    static class Templates {
        static native TemplateInstance page();

        static native TemplateInstance reminders(List<ReminderListItem> items);

        static native TemplateInstance delivery(DeliveryPause.State state, List<Replicas.Seen> replicas);
    }

    private final ReminderService reminders;
    private final DeliveryPause pause;
    private final Replicas replicas;
    private final Caller caller;
    private final Clock clock;

    WebPage(ReminderService reminders, DeliveryPause pause, Replicas replicas, Caller caller, Clock clock) {
        this.reminders = reminders;
        this.pause = pause;
        this.replicas = replicas;
        this.caller = caller;
        this.clock = clock;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true) // a page for people, not an operation for a client generator
    public String page() {
        return Templates.page().render();
    }

    @GET
    @Path("ui/reminders")
    @Produces(MediaType.TEXT_HTML)
    @Authenticated
    @Operation(hidden = true)
    public String callerReminders() {
        return Templates.reminders(
                        reminders.listFrom(caller.id(), null, clock.instant().minus(RECENT), ROWS))
                .render();
    }

    @GET
    @Path("ui/failed")
    @Produces(MediaType.TEXT_HTML)
    @Authenticated
    @Operation(hidden = true)
    public Response failedReminders() {
        if (!caller.isOperator()) {
            return notAnOperator();
        }
        return Response.ok(Templates.reminders(reminders.latest(ReminderStatus.FAILED, ROWS))
                        .render())
                .build();
    }

    @GET
    @Path("ui/delivery")
    @Produces(MediaType.TEXT_HTML)
    @Authenticated
    @Operation(hidden = true)
    public Response delivery() {
        if (!caller.isOperator()) {
            return notAnOperator();
        }
        return Response.ok(Templates.delivery(pause.current(), replicas.list()).render())
                .build();
    }

    private static Response notAnOperator() {
        return Problem.answer(Response.Status.FORBIDDEN, "The caller is not an operator.");
    }
}
