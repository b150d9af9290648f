package com.meetingreminders.security;

import com.meetingreminders.config.RemindersConfig;
import io.quarkus.security.AuthenticationFailedException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Who is calling: the issuer and subject of the bearer token the request was authenticated with, the one pair an
 * identity provider never reassigns (unlike {@code upn} or {@code preferred_username}, which users may change, and
 * which another user may then take). Meetings, signing secrets and limits belong to {@link #id()}.
 *
 * <p>One for the application: the token it reads is always the current request's (a request-scoped proxy). Made for
 * each request, it was made with its configuration each time, which Quarkus looks up by class name (1% of a replica's
 * CPU through creates).
 */
@ApplicationScoped
public class Caller {

    /** What the owner columns hold at most. */
    static final int MAX_ID_LENGTH = 1024;

    private final JsonWebToken token;
    private final String operatorGroup;

    Caller(JsonWebToken token, RemindersConfig config) {
        this.token = token;
        this.operatorGroup = config.admin().group();
    }

    /** An operator: the token's groups claim holds {@code reminders.admin.group}. */
    public boolean isOperator() {
        return token.getGroups() != null && token.getGroups().contains(operatorGroup);
    }

    /** {@code {iss}|{sub}}, escaped: see {@link #idOf}. */
    public String id() {
        String issuer = token.getIssuer();
        String subject = token.getSubject();
        if (issuer == null || issuer.isEmpty() || subject == null || subject.isEmpty()) {
            throw new AuthenticationFailedException("The token has no iss or no sub");
        }
        String id = idOf(issuer, subject);
        if (id.length() > MAX_ID_LENGTH) {
            throw new AuthenticationFailedException("The token's iss and sub are too long");
        }
        if (!storable(id)) {
            throw new AuthenticationFailedException("The token's iss or sub holds U+0000 or half a surrogate pair");
        }
        return id;
    }

    /**
     * Whether the database keeps the id as it is. PostgreSQL's text refuses U+0000, and a surrogate without its pair
     * has no UTF-8 form: the driver would write it as {@code ?}, so that two subjects that differ in one such character
     * would be one owner.
     */
    static boolean storable(String id) {
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '\0') {
                return false;
            }
            if (Character.isHighSurrogate(c) && i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * One string per (issuer, subject) pair, and a different one for every other pair: each part has its {@code %}
     * written {@code %25} and its {@code |} written {@code %7C}, then the parts are joined by {@code |}. An escaped
     * part holds no {@code |}, so the one {@code |} of the result shows where the issuer ends, and the escaping is
     * undone one way only; two pairs that differ give different strings. Readable in the database:
     * {@code https://idp.example.com|248289761001}.
     */
    static String idOf(String issuer, String subject) {
        return escape(issuer) + "|" + escape(subject);
    }

    private static String escape(String part) {
        return part.replace("%", "%25").replace("|", "%7C");
    }

    /** When the caller's token expires: what the caller keeps open, such as a stream, ends then. */
    public Instant tokenExpiresAt() {
        return Instant.ofEpochSecond(token.getExpirationTime());
    }
}
