package com.meetingreminders.notify;

import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * GET /reminders/stream: server-sent events, one per delivered reminder (unnamed) and one per FAILED reminder (named
 * {@code reminder.failed}), the notification as data.
 */
@Path("/reminders/stream")
@Tag(name = "reminders")
@Authenticated
public class ReminderStreamResource {

    private final StreamChannel stream;
    private final Caller caller;

    ReminderStreamResource(StreamChannel stream, Caller caller) {
        this.stream = stream;
        this.caller = caller;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(
            summary =
                    "Live stream of the reminders of the caller's meetings as they are delivered, the notification JSON as"
                            + " each event's data",
            description = "A delivered reminder is an unnamed event (`message`). A reminder that ends FAILED is an"
                    + " event named `reminder.failed` instead, its data the notification plus `attempts` and"
                    + " `lastError`.")
    public Multi<OutboundSseEvent> stream(@Context Sse sse) {
        return stream.announcements(caller.id()).map(announcement -> {
            OutboundSseEvent.Builder event = sse.newEventBuilder().data(announcement.notification());
            announcement.event().ifPresent(event::name);
            return event.build();
        });
    }
}
