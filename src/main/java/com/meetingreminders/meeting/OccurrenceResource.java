package com.meetingreminders.meeting;

import com.meetingreminders.http.Problem;
import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import jakarta.validation.Valid;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/** GET /meetings/{id}/occurrences. */
@Path("/meetings/{id}/occurrences")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "meetings")
@Authenticated
public class OccurrenceResource {

    private final OccurrenceService occurrences;
    private final Caller caller;

    OccurrenceResource(OccurrenceService occurrences, Caller caller) {
        this.occurrences = occurrences;
        this.caller = caller;
    }

    @GET
    @Operation(
            summary = "A meeting's occurrences in [from, to) with their status and reminders, in order",
            description = "from defaults to the first occurrence, to to a year after from; a meeting without recurrence"
                    + " has one occurrence")
    @APIResponse(
            responseCode = "200",
            description = "A page of occurrences",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = OccurrenceView.Page.class)))
    @APIResponse(responseCode = "404", description = "The caller has no meeting with this id")
    public Response list(@RestPath UUID id, @Valid @BeanParam MeetingQuery query) {
        return occurrences
                .list(caller.id(), id, query)
                .map(page -> Response.ok(page).build())
                .orElseGet(() -> Problem.meetingNotFound(id));
    }
}
