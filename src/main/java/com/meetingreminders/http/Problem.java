package com.meetingreminders.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.UUID;

/**
 * An RFC 9457 problem, the body of every error answer. {@code type} is {@code about:blank} where the status says it
 * all, or one of the service's own problem types with extra members.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(
        String type, String title, int status, String detail, List<FieldError> errors, Integer moreErrors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    static final String INVALID_REQUEST = "/problems/invalid-request";
    static final String STALE_VERSION = "/problems/stale-version";
    static final String LIMIT_EXCEEDED = "/problems/limit-exceeded";

    /** Most errors one answer lists; {@code moreErrors} counts the rest. */
    static final int MAX_ERRORS = 100;

    public Problem(String type, String title, int status, String detail, List<FieldError> errors) {
        this(type, title, status, detail, errors, null);
    }

    /** One broken rule of a request: the field as a JSON path ({@code remindBefore[2]}) and what is wrong with it. */
    public record FieldError(String field, String message) {}

    public static Problem of(Response.StatusType status, String detail) {
        return new Problem("about:blank", status.getReasonPhrase(), status.getStatusCode(), detail, null);
    }

    /** The detail of a 400 whose errors name the rules broken, however many are listed. */
    static String brokenRules(int count) {
        return "The request breaks " + count + " rule(s).";
    }

    /** At most {@link #MAX_ERRORS} of the errors, and how many more there are. */
    static Problem invalidRequest(String detail, List<FieldError> errors) {
        return new Problem(
                INVALID_REQUEST,
                "Invalid request",
                400,
                detail,
                errors.isEmpty() ? null : errors.subList(0, Math.min(errors.size(), MAX_ERRORS)),
                errors.size() > MAX_ERRORS ? errors.size() - MAX_ERRORS : null);
    }

    /** 429: the caller is over a fair-use limit; the answer's Retry-After says in how many seconds to try again. */
    public static Problem limitExceeded(String detail) {
        return new Problem(LIMIT_EXCEEDED, "Limit exceeded", 429, detail, null);
    }

    /** 413 for a body over the 64 KiB that every body but a batch may have. */
    static Problem meetingTooLarge() {
        return of(Response.Status.REQUEST_ENTITY_TOO_LARGE, "The body is larger than 64 KiB.");
    }

    /** 413 for a body over {@code limitBytes}. */
    static Problem tooLarge(long limitBytes) {
        return of(Response.Status.REQUEST_ENTITY_TOO_LARGE, "The body is larger than " + limitBytes + " bytes.");
    }

    /** An answer whose status says what went wrong, with a sentence for the person reading it. */
    public static Response answer(Response.Status status, String detail) {
        return of(status, detail).toResponse();
    }

    public static Response meetingNotFound(UUID id) {
        return of(Response.Status.NOT_FOUND, "There is no meeting " + id + ".").toResponse();
    }

    public Response toResponse() {
        return Response.status(status).type(MEDIA_TYPE).entity(this).build();
    }

    /**
     * The same answer as {@link #toResponse()}, for a Vert.x route that gives it before JAX-RS reads the request. The
     * body is left unread: the answer asks the client to close the connection, while Vert.x reads and drops what it
     * still sends. Closing at once would reset a client still sending its body before it read the answer.
     */
    Handler<RoutingContext> beforeJaxRs(ObjectMapper json) throws JsonProcessingException {
        String body = json.writeValueAsString(this);
        return context -> context.response()
                .setStatusCode(status)
                .putHeader(io.vertx.core.http.HttpHeaders.CONTENT_TYPE, MEDIA_TYPE)
                .putHeader(io.vertx.core.http.HttpHeaders.CONNECTION, io.vertx.core.http.HttpHeaders.CLOSE)
                .end(body);
    }
}
