package com.meetingreminders.reminder;

import com.meetingreminders.problem.Problem;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/** GET /meetings/{id}/reminders. */
@Path("/meetings/{id}/reminders")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "reminders")
public class ReminderResource {

    private final ReminderService reminders;

    ReminderResource(ReminderService reminders) {
        this.reminders = reminders;
    }

    @GET
    @Operation(summary = "A meeting's reminders with their states, attempts and last errors")
    public Response list(@RestPath UUID id) {
        return reminders
                .listForMeeting(id)
                .map(list -> Response.ok(list).build())
                .orElseGet(() -> Problem.meetingNotFound(id));
    }
}
