package com.meetingreminders.notify;

import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestStreamElementType;

/** GET /reminders/stream: server-sent events, one per delivered reminder, the notification as data. */
@Path("/reminders/stream")
@Tag(name = "reminders")
public class ReminderStreamResource {

    private final StreamChannel stream;

    ReminderStreamResource(StreamChannel stream) {
        this.stream = stream;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(summary = "Live stream of delivered reminders, the notification JSON as each event's data")
    public Multi<String> stream() {
        return stream.notifications();
    }
}
