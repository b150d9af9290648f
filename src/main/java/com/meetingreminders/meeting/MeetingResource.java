package com.meetingreminders.meeting;

import com.fasterxml.jackson.databind.JsonNode;
import com.meetingreminders.http.AcceptedType;
import com.meetingreminders.http.Problem;
import com.meetingreminders.idempotency.IdempotencyKeyHeader;
import com.meetingreminders.idempotency.IdempotentCreates;
import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.groups.ConvertGroup;
import jakarta.validation.groups.Default;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/** The /meetings API: maps calls to {@link MeetingService} and its answers to HTTP. */
@Path("/meetings")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "meetings")
@Authenticated
public class MeetingResource {

    /** RFC 7386's media type: the body of PATCH /meetings/{id}. */
    static final String MERGE_PATCH = "application/merge-patch+json";

    static final String OVER_LIMIT =
            "Over a fair-use limit of the caller (reminders.limits.*); Retry-After says when to try again. Nothing is"
                    + " stored";

    private static final String ETAG_DOC = "The meeting's version, for If-Match on PUT";

    static final String NOT_FOUND_DOC = "The caller has no meeting with this id";

    /** A change that would put reminders of two occurrences at one instant; see ReminderCollision. */
    static final String COLLISION_DOC = "Two occurrences would have a reminder at the same instant (type"
            + " /problems/reminder-collision; detail names both and the instant); nothing is stored";

    private static final String CALENDAR_IN =
            "SUMMARY is the title; DTSTART with a TZID (IANA or Windows name) or in UTC"
                    + " the start and time zone; RRULE the recurrence; EXDATE and cancelled RECURRENCE-ID events the cancelled"
                    + " occurrences; other events with the series' UID and a RECURRENCE-ID the moved ones (their DTSTART);"
                    + " ATTENDEE mailto: the attendees; each VALARM's TRIGGER before the start a remindBefore."
                    + " All-day and floating starts, RDATE, and a RECURRENCE-ID that is no occurrence of the RRULE, named"
                    + " twice or on another UID, and an event or series that is STATUS:CANCELLED, are refused with"
                    + " 400. The body is read as UTF-8, whatever charset its Content-Type names.";

    private static final String CALENDAR_OUT = "one VEVENT with UID = id, DTSTAMP, SUMMARY, DTSTART with TZID and its"
            + " VTIMEZONE (or in UTC), RRULE, EXDATE, ATTENDEE and one VALARM per remindBefore; then one VEVENT per moved"
            + " occurrence, with RECURRENCE-ID its original start and DTSTART its new one.";

    /** What GET of a meeting answers in, JSON first: the one for a request that names neither. */
    private static final List<MediaType> ANSWERS =
            List.of(MediaType.APPLICATION_JSON_TYPE, MediaType.valueOf(CalendarImport.MEDIA_TYPE));

    private final MeetingService meetings;
    private final Caller caller;
    private final IdempotentCreates idempotent;
    private final ImportedMoves importedMoves;
    private final GroupedCreates creates;

    MeetingResource(
            MeetingService meetings,
            Caller caller,
            IdempotentCreates idempotent,
            ImportedMoves importedMoves,
            GroupedCreates creates) {
        this.meetings = meetings;
        this.creates = creates;
        this.caller = caller;
        this.idempotent = idempotent;
        this.importedMoves = importedMoves;
    }

    @POST
    @Consumes({MediaType.APPLICATION_JSON, CalendarImport.MEDIA_TYPE})
    @Operation(
            summary = "Create a meeting and schedule its reminders",
            description = "From JSON, or from one VEVENT of an iCalendar object (text/calendar): " + CALENDAR_IN)
    @RequestBody(
            content = {
                @Content(
                        mediaType = MediaType.APPLICATION_JSON,
                        schema = @Schema(implementation = MeetingRequest.class)),
                @Content(
                        mediaType = CalendarImport.MEDIA_TYPE,
                        schema = @Schema(type = SchemaType.STRING, description = "RFC 5545 VCALENDAR"))
            })
    @APIResponse(
            responseCode = "201",
            description = "Created; Location and ETag name the new meeting",
            headers = {
                @Header(name = "Idempotent-Replayed", description = IdempotentCreates.REPLAYED_DOC),
                @Header(name = "Location", description = "/meetings/{id} of the new meeting"),
                @Header(name = "ETag", description = ETAG_DOC)
            },
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = MeetingView.class)))
    @APIResponse(responseCode = "400", description = "Invalid body; nothing is stored")
    @APIResponse(responseCode = "409", description = IdempotentCreates.IN_USE_DOC + "; or: " + COLLISION_DOC)
    @APIResponse(responseCode = "413", description = "Body over 64 KiB")
    @APIResponse(responseCode = "415", description = "Body is neither application/json nor text/calendar")
    @APIResponse(responseCode = "422", description = IdempotentCreates.REUSED_DOC)
    @APIResponse(responseCode = "429", description = OVER_LIMIT)
    public Response create(
            @Parameter(description = IdempotentCreates.HEADER_DOC)
                    @RestHeader(IdempotentCreates.HEADER)
                    @IdempotencyKeyHeader
                    String idempotencyKey,
            @Valid
                    @ConvertGroup(from = Default.class, to = MeetingRequest.OnCreate.class)
                    @NotNull(message = "must be a JSON object")
                    MeetingRequest body) {
        Object request = importedMoves.withBody(body);
        return idempotent.answer(caller.id(), idempotencyKey, "POST /meetings", request, () -> {
            MeetingView meeting = creates.create(caller.id(), body, importedMoves.get());
            // A path, as the API promises: created(URI) would make it absolute from the request's Host header,
            // which the client chose.
            return Response.status(Response.Status.CREATED)
                    .header(HttpHeaders.LOCATION, "/meetings/" + meeting.id())
                    .header(HttpHeaders.ETAG, VersionPrecondition.entityTag(meeting.version()))
                    .entity(meeting)
                    .build();
        });
    }

    @GET
    @Path("{id}")
    @Produces({MediaType.APPLICATION_JSON, CalendarImport.MEDIA_TYPE})
    @Operation(
            summary = "A meeting with its reminders",
            description = "As JSON, or with Accept: text/calendar as a VCALENDAR: " + CALENDAR_OUT)
    @APIResponse(
            responseCode = "200",
            description = "The meeting",
            headers = @Header(name = "ETag", description = ETAG_DOC),
            content = {
                @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MeetingView.class)),
                @Content(
                        mediaType = CalendarImport.MEDIA_TYPE,
                        schema = @Schema(type = SchemaType.STRING, description = "RFC 5545 VCALENDAR"))
            })
    @APIResponse(responseCode = "404", description = NOT_FOUND_DOC)
    public Response get(@RestPath UUID id, @Context HttpHeaders headers) {
        // Not left to the writers, which serve a type that Accept gives q=0 (AcceptedType says more).
        MediaType chosen = AcceptedType.among(headers, ANSWERS);
        // JSON or iCalendar by Accept: a cache must keep them apart.
        return meetings.find(caller.id(), id)
                .map(meeting -> Response.fromResponse(ok(meeting))
                        .type(chosen)
                        .header(HttpHeaders.VARY, HttpHeaders.ACCEPT)
                        .build())
                .orElseGet(() -> Problem.meetingNotFound(id));
    }

    @GET
    @Operation(summary = "Meetings starting in [from, to), ordered by start, a page at a time")
    public MeetingPage list(@Valid @BeanParam MeetingQuery query) {
        return meetings.list(caller.id(), query);
    }

    @PUT
    @Path("{id}")
    @Operation(summary = "Replace a meeting; a new start or remindBefore cancels the unsent reminders of the old one")
    @APIResponse(
            responseCode = "200",
            description = "The meeting as it now is",
            headers = @Header(name = "ETag", description = ETAG_DOC),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = MeetingView.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND_DOC)
    @APIResponse(responseCode = "409", description = COLLISION_DOC)
    @APIResponse(responseCode = "412", description = "If-Match names a version that is no longer current")
    @APIResponse(responseCode = "429", description = OVER_LIMIT)
    public Response update(
            @RestPath UUID id,
            @RestHeader(VersionPrecondition.HEADER) List<String> ifMatch,
            @Valid @NotNull(message = "must be a JSON object") MeetingRequest body) {
        return meetings.update(caller.id(), id, body, VersionPrecondition.of(ifMatch))
                .map(MeetingResource::ok)
                .orElseGet(() -> Problem.meetingNotFound(id));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MERGE_PATCH)
    @Operation(
            summary = "Change only the fields named (RFC 7386 JSON merge patch); null resets an optional field",
            description = "The patched meeting passes the same rules as a PUT body; a new start or remindBefore cancels"
                    + " the unsent reminders of the old one")
    @APIResponse(
            responseCode = "200",
            description = "The meeting as it now is",
            headers = @Header(name = "ETag", description = ETAG_DOC),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = MeetingView.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND_DOC)
    @APIResponse(responseCode = "409", description = COLLISION_DOC)
    @APIResponse(responseCode = "412", description = "If-Match names a version that is no longer current")
    @APIResponse(responseCode = "415", description = "Body is not application/merge-patch+json")
    @APIResponse(responseCode = "429", description = OVER_LIMIT)
    public Response patch(
            @RestPath UUID id,
            @RestHeader(VersionPrecondition.HEADER) List<String> ifMatch,
            @NotNull(message = "must be a JSON object") JsonNode body) {
        return meetings.patch(caller.id(), id, body, VersionPrecondition.of(ifMatch))
                .map(MeetingResource::ok)
                .orElseGet(() -> Problem.meetingNotFound(id));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a meeting and cancel its unsent reminders")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "400", description = "If-Match is not * or a list of entity tags")
    @APIResponse(responseCode = "404", description = NOT_FOUND_DOC)
    @APIResponse(responseCode = "412", description = "If-Match names a version that is no longer current")
    public Response delete(@RestPath UUID id, @RestHeader(VersionPrecondition.HEADER) List<String> ifMatch) {
        return meetings.delete(caller.id(), id, VersionPrecondition.of(ifMatch))
                ? Response.noContent().build()
                : Problem.meetingNotFound(id);
    }

    private static Response ok(MeetingView meeting) {
        return Response.ok(meeting)
                .header(HttpHeaders.ETAG, VersionPrecondition.entityTag(meeting.version()))
                .build();
    }
}
