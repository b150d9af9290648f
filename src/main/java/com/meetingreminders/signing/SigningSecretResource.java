package com.meetingreminders.signing;

import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The caller's secret for verifying the webhooks sent to its meetings' own {@code webhookUrl}s. */
@Path("/signing-secret")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "signing secret")
@Authenticated
public class SigningSecretResource {

    private final SigningSecrets secrets;
    private final Caller caller;

    SigningSecretResource(SigningSecrets secrets, Caller caller) {
        this.secrets = secrets;
        this.caller = caller;
    }

    @GET
    @Operation(
            summary = "The caller's webhook signing secret",
            description = "Made on first use. Webhooks to the caller's own webhookUrl carry webhook-id,"
                    + " webhook-timestamp and webhook-signature (Standard Webhooks), signed with it; verify them with a"
                    + " standardwebhooks library.")
    @APIResponse(responseCode = "200", description = "The secret, and the previous one while a rotation overlaps")
    @APIResponse(responseCode = "401", description = "No valid bearer token")
    public SigningSecretView get() {
        return secrets.current(caller.id());
    }

    @POST
    @Path("rotate")
    @Operation(
            summary = "Replace the caller's webhook signing secret",
            description = "The old secret keeps signing beside the new one (two signatures) for"
                    + " reminders.webhook.rotation-overlap, so receivers can switch without losing a message.")
    @APIResponse(responseCode = "200", description = "The new secret, and the old one with when it stops signing")
    @APIResponse(responseCode = "401", description = "No valid bearer token")
    public SigningSecretView rotate() {
        return secrets.rotate(caller.id());
    }
}
