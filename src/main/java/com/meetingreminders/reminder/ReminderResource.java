package com.meetingreminders.reminder;

import com.meetingreminders.problem.Problem;
import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/** GET /meetings/{id}/reminders. */
@Path("/meetings/{id}/reminders")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "reminders")
@Authenticated
public class ReminderResource {

    private final ReminderService reminders;
    private final Caller caller;

    ReminderResource(ReminderService reminders, Caller caller) {
        this.reminders = reminders;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "A meeting's reminders with their states, attempts and last errors")
    @APIResponse(
            responseCode = "200",
            description = "The reminders, by send time",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(type = SchemaType.ARRAY, implementation = ReminderView.class)))
    @APIResponse(responseCode = "404", description = "The caller has no meeting with this id")
    public Response list(@RestPath UUID id) {
        return reminders
                .listForMeeting(caller.id(), id)
                .map(list -> Response.ok(list).build())
                .orElseGet(() -> Problem.meetingNotFound(id));
    }
}
