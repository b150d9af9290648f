package com.meetingreminders.security;

import jakarta.enterprise.context.RequestScoped;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Who is calling: the principal of the bearer token the request was authenticated with (its {@code upn},
 * {@code preferred_username} or {@code sub} claim; a token without one is refused). Meetings belong to the caller
 * that created them.
 */
@RequestScoped
public class Caller {

    private final JsonWebToken token;

    Caller(JsonWebToken token) {
        this.token = token;
    }

    public String id() {
        return token.getName();
    }

    /** When the caller's token expires: what the caller keeps open, such as a stream, ends then. */
    public Instant tokenExpiresAt() {
        return Instant.ofEpochSecond(token.getExpirationTime());
    }
}
