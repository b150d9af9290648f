package com.meetingreminders.meeting;

import com.meetingreminders.idempotency.IdempotencyKeyHeader;
import com.meetingreminders.idempotency.IdempotentCreates;
import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;

/** POST /meetings/batch: up to 1,000 meetings created in one transaction, all or none. */
@Path("/meetings/batch")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "meetings")
@Authenticated
public class MeetingBatchResource {

    /** Most meetings one POST /meetings/batch may create. */
    static final int MAX_BATCH = 1_000;

    /** What a batch of the wrong length is told, whether {@link BatchCount} or validation finds it. */
    static final String BATCH_SIZE_RULE = "must hold 1 to 1,000 meetings";

    private final MeetingService meetings;
    private final Caller caller;
    private final IdempotentCreates idempotent;
    private final BatchValidation batchValidation;

    MeetingBatchResource(
            MeetingService meetings, Caller caller, IdempotentCreates idempotent, BatchValidation batchValidation) {
        this.meetings = meetings;
        this.caller = caller;
        this.idempotent = idempotent;
        this.batchValidation = batchValidation;
    }

    @POST
    @Operation(
            summary = "Create up to 1,000 meetings in one call",
            description = "A JSON array of meetings, each as for POST /meetings. All are created, or none when one"
                    + " breaks a rule; errors name the meeting by its index, as in [3].title. Up to 8 MiB.")
    @APIResponse(
            responseCode = "201",
            description = "Created; the meetings in the order given",
            headers = @Header(name = "Idempotent-Replayed", description = IdempotentCreates.REPLAYED_DOC),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = MeetingBatch.class)))
    @APIResponse(responseCode = "400", description = "A meeting breaks a rule, or the array is empty or too long")
    @APIResponse(
            responseCode = "409",
            description = IdempotentCreates.IN_USE_DOC + "; or: " + MeetingResource.COLLISION_DOC + " (detail names the"
                    + " meeting by its index)")
    @APIResponse(responseCode = "422", description = IdempotentCreates.REUSED_DOC)
    @APIResponse(responseCode = "429", description = MeetingResource.OVER_LIMIT)
    @BatchCount.Counted
    public Response createBatch(
            @Parameter(description = IdempotentCreates.HEADER_DOC)
                    @RestHeader(IdempotentCreates.HEADER)
                    @IdempotencyKeyHeader
                    String idempotencyKey,
            @NotNull(message = "must be a JSON array of meetings")
                    @Size(min = 1, max = MAX_BATCH, message = BATCH_SIZE_RULE)
                    List<MeetingRequest> body) {
        // Meeting by meeting rather than by @Valid on the list: the answer lists 100 errors, and checking stops at
        // 10,000, so a batch of a million broken fields costs no more than that.
        batchValidation.check(body);
        return idempotent.answer(caller.id(), idempotencyKey, "POST /meetings/batch", body, () -> {
            MeetingBatch created = new MeetingBatch(meetings.createAll(caller.id(), body));
            return Response.status(Response.Status.CREATED).entity(created).build();
        });
    }
}
