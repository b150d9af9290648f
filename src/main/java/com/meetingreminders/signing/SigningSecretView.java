package com.meetingreminders.signing;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A caller's signing secret as {@code GET /signing-secret} answers it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SigningSecretView(
        @Schema(description = "whsec_ and the base64 of the HMAC key: configure it in the receiver's verifier")
                String secret,
        Instant createdAt,
        @Schema(
                        description =
                                "After a rotation, the secret before it, which keeps signing beside the new one until"
                                        + " expiresAt; absent otherwise")
                Previous previous) {

    /** The secret a rotation replaced, and when it stops signing. */
    public record Previous(String secret, Instant expiresAt) {}
}
