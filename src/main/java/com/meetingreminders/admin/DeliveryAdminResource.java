package com.meetingreminders.admin;

import com.meetingreminders.delivery.DeliveryPause;
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
import java.util.List;
import java.util.function.Supplier;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** /admin/delivery: pause and resume delivery for the whole deployment, and each replica's health. Operators only. */
@Path("/admin/delivery")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "operators")
@Authenticated
public class DeliveryAdminResource {

    private static final String NOT_AN_OPERATOR =
            "The caller is not an operator (groups claim without the operators'" + " group, reminders.admin.group)";

    /** The switch as the operator calls answer it. */
    public record Switch(boolean paused, Instant since) {}

    /** The switch and every replica heard from. */
    public record Overview(boolean paused, Instant since, List<Replicas.Seen> replicas) {}

    private final DeliveryPause pause;
    private final Replicas replicas;
    private final Caller caller;

    DeliveryAdminResource(DeliveryPause pause, Replicas replicas, Caller caller) {
        this.pause = pause;
        this.replicas = replicas;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "Whether delivery is paused, and each replica's health as the cluster sees it")
    @APIResponse(
            responseCode = "200",
            description = "The switch and the replicas heard from within the last hour",
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Overview.class)))
    @APIResponse(responseCode = "403", description = NOT_AN_OPERATOR)
    public Response overview() {
        return operatorOnly(() -> {
            DeliveryPause.State state = pause.current();
            return new Overview(state.paused(), state.since(), replicas.list());
        });
    }

    @POST
    @Path("pause")
    @Operation(
            summary = "Pause delivery on every replica",
            description = "Answers once the delivery rounds under way have ended; from then on no replica sends"
                    + " anything, and nothing is lost. Readiness stays UP with a paused detail.")
    @APIResponse(
            responseCode = "200",
            description = "Paused; since is when the pause began",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Switch.class)))
    @APIResponse(responseCode = "403", description = NOT_AN_OPERATOR)
    public Response pause() {
        return operatorOnly(() -> asSwitch(pause.set(true)));
    }

    @POST
    @Path("resume")
    @Operation(
            summary = "Resume delivery on every replica",
            description = "What fell due meanwhile is sent at once, or SKIPPED if its meeting has started and it is"
                    + " later than the late cut-off (reminders.delivery.late-cutoff).")
    @APIResponse(
            responseCode = "200",
            description = "Delivering; since is when delivery resumed",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Switch.class)))
    @APIResponse(responseCode = "403", description = NOT_AN_OPERATOR)
    public Response resume() {
        return operatorOnly(() -> asSwitch(pause.set(false)));
    }

    private Response operatorOnly(Supplier<Object> answer) {
        if (!caller.isOperator()) {
            return Problem.answer(Response.Status.FORBIDDEN, NOT_AN_OPERATOR + ".");
        }
        return Response.ok(answer.get()).build();
    }

    private static Switch asSwitch(DeliveryPause.State state) {
        return new Switch(state.paused(), state.since());
    }
}
