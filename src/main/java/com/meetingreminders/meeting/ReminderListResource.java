package com.meetingreminders.meeting;

import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import jakarta.validation.Valid;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** GET /reminders: the caller's reminders, or every caller's for an operator. */
@Path("/reminders")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "reminders")
@Authenticated
public class ReminderListResource {

    private final ReminderService reminders;
    private final Caller caller;

    ReminderListResource(ReminderService reminders, Caller caller) {
        this.reminders = reminders;
        this.caller = caller;
    }

    @GET
    @Operation(
            summary = "Reminders sent or due in [from, to), by send time, a page at a time",
            description = "An operator (groups claim holding reminders.admin.group) sees every caller's; anyone else"
                    + " their own.")
    @APIResponse(
            responseCode = "200",
            description = "A page of reminders",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ReminderPage.class)))
    @APIResponse(responseCode = "400", description = "A parameter is malformed; errors name it")
    public ReminderPage list(@Valid @BeanParam ReminderQuery query) {
        return reminders.list(caller.isOperator() ? null : caller.id(), query);
    }
}
