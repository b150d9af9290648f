package com.meetingreminders.meeting;

import com.meetingreminders.http.Problem;
import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/** GET /meetings/{id}/occurrences, and one occurrence moved or cancelled. */
@Path("/meetings/{id}/occurrences")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "meetings")
@Authenticated
public class OccurrenceResource {

    private static final String OCCURRENCE_DOC =
            "the occurrence's original start (its RECURRENCE-ID), an ISO-8601 UTC instant: 2027-03-29T07:00:00Z";

    private static final String NO_OCCURRENCE_DOC =
            "The caller has no meeting with this id, or the instant is not one of its occurrences";

    private static final String STALE_DOC = "If-Match names a version that is no longer current";

    private final OccurrenceService occurrences;
    private final OccurrenceChanges changes;
    private final Caller caller;

    OccurrenceResource(OccurrenceService occurrences, OccurrenceChanges changes, Caller caller) {
        this.occurrences = occurrences;
        this.changes = changes;
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

    @PATCH
    @Path("{occurrence}")
    @Consumes({MediaType.APPLICATION_JSON, MeetingResource.MERGE_PATCH})
    @Operation(
            summary = "Move one occurrence ({\"startsAt\": …}) or cancel it ({\"cancelled\": true})",
            description = "Its unsent reminders are cancelled and, for a move, planned again at the new start less"
                    + " each remindBefore; delivered ones stay. Moving it to its original start undoes a move or a"
                    + " cancellation. A change of the meeting's startsAt, recurrence or timeZone drops its moves.")
    @APIResponse(
            responseCode = "200",
            description = "The occurrence as it now is",
            headers = @Header(name = "ETag", description = "The meeting's new version, for If-Match"),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = OccurrenceView.class)))
    @APIResponse(responseCode = "400", description = "Invalid body: both fields, neither, or startsAt out of range")
    @APIResponse(responseCode = "404", description = NO_OCCURRENCE_DOC)
    @APIResponse(responseCode = "409", description = MeetingResource.COLLISION_DOC)
    @APIResponse(responseCode = "412", description = STALE_DOC)
    @APIResponse(responseCode = "429", description = MeetingResource.OVER_LIMIT)
    public Response change(
            @RestPath UUID id,
            @Parameter(description = OCCURRENCE_DOC) @RestPath String occurrence,
            @RestHeader(VersionPrecondition.HEADER) List<String> ifMatch,
            @Valid @NotNull(message = "must be a JSON object") OccurrenceChange body) {
        return answer(id, occurrence, body.movedTo(), ifMatch, changed -> Response.ok(changed.occurrence()));
    }

    @DELETE
    @Path("{occurrence}")
    @Operation(
            summary = "Cancel one occurrence",
            description = "As PATCH with {\"cancelled\": true}: its unsent reminders are CANCELLED and never sent")
    @APIResponse(
            responseCode = "204",
            description = "Cancelled",
            headers = @Header(name = "ETag", description = "The meeting's new version, for If-Match"))
    @APIResponse(responseCode = "404", description = NO_OCCURRENCE_DOC)
    @APIResponse(responseCode = "412", description = STALE_DOC)
    @APIResponse(responseCode = "429", description = MeetingResource.OVER_LIMIT)
    public Response cancel(
            @RestPath UUID id,
            @Parameter(description = OCCURRENCE_DOC) @RestPath String occurrence,
            @RestHeader(VersionPrecondition.HEADER) List<String> ifMatch) {
        return answer(id, occurrence, Optional.empty(), ifMatch, changed -> Response.noContent());
    }

    private Response answer(
            UUID id,
            String occurrence,
            Optional<Instant> movedTo,
            List<String> ifMatch,
            Function<OccurrenceChanges.ChangedOccurrence, Response.ResponseBuilder> success) {
        return ReminderResource.instant(occurrence)
                .flatMap(at -> changes.change(caller.id(), id, at, movedTo, VersionPrecondition.of(ifMatch)))
                .map(changed -> success.apply(changed)
                        .header(HttpHeaders.ETAG, VersionPrecondition.entityTag(changed.version()))
                        .build())
                .orElseGet(() -> Problem.answer(
                        Response.Status.NOT_FOUND,
                        "There is no meeting " + id + " with an occurrence at that instant (its original start, an"
                                + " ISO-8601 UTC instant such as 2027-03-29T07:00:00Z)."));
    }
}
