package com.meetingreminders.meeting;

import com.meetingreminders.http.Problem;
import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/** GET /meetings/{id}/reminders, and POST /meetings/{id}/reminders/{sendAt}/retry. */
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

    @POST
    @Path("{sendAt}/retry")
    @Operation(
            summary = "Send a FAILED reminder again",
            description = "The meeting's owner or an operator. The reminder is SCHEDULED again with attempts 0, due at"
                    + " once, and delivered once with its deliveryId unchanged (the late cut-off still applies). An"
                    + " owner's retry counts towards its limits as a reminder falling due now, with the e-mails it still"
                    + " owes; an operator's is not counted.")
    @APIResponse(
            responseCode = "202",
            description = "Scheduled again; the reminder as it is now",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "404", description = "No such meeting of the caller, or no reminder at that time")
    @APIResponse(responseCode = "409", description = "The reminder is not FAILED; nothing changed")
    @APIResponse(responseCode = "429", description = MeetingResource.OVER_LIMIT)
    public Response retry(
            @RestPath UUID id,
            @Parameter(description = "the reminder's send time, an ISO-8601 UTC instant: 2027-03-29T07:00:00Z")
                    @RestPath
                    String sendAt) {
        Optional<Instant> at = instant(sendAt);
        if (at.isEmpty()) {
            return noReminder(id);
        }
        return reminders
                .retry(caller.isOperator() ? null : caller.id(), id, at.get())
                .map(retry -> retry.scheduled()
                        ? Response.accepted(retry.reminder()).build()
                        : Problem.answer(
                                Response.Status.CONFLICT,
                                "The reminder is " + retry.reminder().status()
                                        + "; only a FAILED reminder can be retried."))
                .orElseGet(() -> noReminder(id));
    }

    /**
     * An ISO-8601 UTC instant from a path, in the years no meeting lies outside of (1 to 9999); empty for anything else,
     * which the caller answers 404.
     */
    static Optional<Instant> instant(String text) {
        try {
            return Optional.of(Instant.parse(text)).filter(IsoDateTime.Validator::inRange);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Response noReminder(UUID id) {
        return Problem.answer(
                Response.Status.NOT_FOUND,
                "There is no meeting " + id + " with a reminder at that time (an ISO-8601 UTC instant such as"
                        + " 2027-03-29T07:00:00Z).");
    }
}
