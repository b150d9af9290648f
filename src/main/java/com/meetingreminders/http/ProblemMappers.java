package com.meetingreminders.http;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.quarkus.logging.Log;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Path;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.CharConversionException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place where exceptions become answers: every error is problem+json, and none carries internals. The filters
 * of this package throw what they refuse, to be answered here; only {@link BodySizeLimit}, which answers before JAX-RS
 * has the request, writes its {@link Problem} itself, through {@link Problem#beforeJaxRs}.
 */
public class ProblemMappers {

    /** Said of every resource alike: each takes and answers its own media types, which OpenAPI names. */
    public static final String NOT_ACCEPTABLE =
            "This resource answers in no media type that Accept allows; its OpenAPI description names those it does.";

    public static final String UNSUPPORTED_MEDIA_TYPE =
            "This resource takes no body of that media type; its OpenAPI description names those it takes.";

    private static final Map<Integer, String> DETAILS = Map.of(
            404,
            "Nothing is here.",
            405,
            "This resource does not take that method.",
            406,
            NOT_ACCEPTABLE,
            415,
            UNSUPPORTED_MEDIA_TYPE);

    /** The title of every refusal of a body that cannot be parsed, whatever broke first: the bytes or the syntax. */
    private static final String NOT_JSON = "The body is not well-formed JSON.";

    private final AllowedMethods allowedMethods;

    ProblemMappers(AllowedMethods allowedMethods) {
        this.allowedMethods = allowedMethods;
    }

    @ServerExceptionMapper
    public Response invalid(ConstraintViolationException e) {
        List<Problem.FieldError> errors = e.getConstraintViolations().stream()
                .map(violation -> new Problem.FieldError(fieldOf(violation.getPropertyPath()), violation.getMessage()))
                .sorted(Comparator.comparing(Problem.FieldError::field).thenComparing(Problem.FieldError::message))
                .toList();
        return Problem.invalidRequest(Problem.brokenRules(errors.size()), errors)
                .toResponse();
    }

    /** Takes precedence over Quarkus's own mapper, which answers without a problem body. */
    @ServerExceptionMapper
    public Response mismatched(MismatchedInputException e) {
        return unreadable(e);
    }

    @ServerExceptionMapper
    public Response unreadable(JsonProcessingException e) {
        // The stream under the parser may have given up first: a body over the limit.
        if (e.getCause() instanceof WebApplicationException chosen) {
            return http(chosen);
        }
        // Bytes inside a string are decoded only when the field's deserializer asks for its text, which wraps the
        // parser's refusal (no UTF-8) as if the value were of the wrong type.
        if (e instanceof JsonMappingException && e.getCause() instanceof JsonParseException malformed) {
            return unreadable(malformed);
        }
        if (!(e instanceof JsonMappingException mapping)) {
            return Problem.invalidRequest(NOT_JSON, List.of(MalformedJson.of(e)))
                    .toResponse();
        }
        return Problem.invalidRequest("The body does not match the expected JSON.", List.of(JsonMismatch.of(mapping)))
                .toResponse();
    }

    /**
     * Bytes that are not text in the encoding Jackson detected from the body's first four (JSON may be UTF-8, UTF-16
     * or UTF-32): its readers throw this IOException, not a JsonProcessingException, and it was a 500.
     */
    @ServerExceptionMapper
    public Response undecodable(CharConversionException e) {
        return Problem.invalidRequest(
                        NOT_JSON, List.of(new Problem.FieldError("body", "is not text in UTF-8, UTF-16 or UTF-32")))
                .toResponse();
    }

    /** A feature's own refusal: a broken rule of a body, a stale version, an Idempotency-Key, a fair-use limit. */
    @ServerExceptionMapper
    public Response refused(ProblemException e) {
        Response answer = e.problem().toResponse();
        e.headers().forEach((name, value) -> answer.getHeaders().add(name, value));
        return answer;
    }

    /**
     * No token, or one that does not verify (signature, issuer, expiry). The answer does not say which: a caller with
     * a working token never sees it, and the reason helps an attacker more than a client.
     */
    @ServerExceptionMapper({AuthenticationFailedException.class, UnauthorizedException.class})
    public Response unauthenticated(RuntimeException e) {
        return Response.fromResponse(Problem.of(
                                Response.Status.UNAUTHORIZED, "Send a valid bearer token: Authorization: Bearer <JWT>.")
                        .toResponse())
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }

    /** A ValidationException that is not a violation is a broken constraint: our fault, not the caller's. */
    @ServerExceptionMapper
    public Response brokenConstraint(ValidationException e) {
        return unexpected(e);
    }

    @ServerExceptionMapper
    public Response http(WebApplicationException e) {
        // Quarkus reports what goes wrong while reading a body as a bare 400 whose cause says what: JSON it cannot
        // parse, or the answer the reading chose (BodySizeLimit's 413 for a body over the limit).
        if (e.getCause() instanceof JsonProcessingException unreadable) {
            return unreadable(unreadable);
        }
        if (e.getCause() instanceof WebApplicationException chosen) {
            return http(chosen);
        }
        if (e.getCause() instanceof ProblemException refusal) {
            return refused(refusal);
        }
        Response.StatusType status = e.getResponse().getStatusInfo();
        if (status.getStatusCode() >= 500) {
            return unexpected(e);
        }
        // BodySizeLimit's 413 for a body of unknown length holds every body but a batch to the meeting limit.
        Response problem = (status.getStatusCode() == 413
                        ? Problem.meetingTooLarge()
                        : Problem.of(status, DETAILS.getOrDefault(status.getStatusCode(), status.getReasonPhrase())))
                .toResponse();
        // Keep headers such as Allow on a 405.
        e.getResponse().getHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type") && !name.equalsIgnoreCase("Content-Length")) {
                values.forEach(value -> problem.getHeaders().add(name, value));
            }
        });
        return problem;
    }

    /** RESTEasy Reactive's 405 carries no Allow, which RFC 9110 requires of it. */
    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e, UriInfo uri) {
        Response problem = http(e);
        allowedMethods.of(uri.getPath()).ifPresent(allow -> problem.getHeaders().putSingle(HttpHeaders.ALLOW, allow));
        return problem;
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (DatabaseOutage.causes(e)) {
            Log.infof(
                    "Answering 503: the database cannot be reached (%s)",
                    rootCause(e).getMessage());
            Response unavailable = Problem.of(
                            Response.Status.SERVICE_UNAVAILABLE,
                            "The database cannot be reached right now; nothing was changed. Try again shortly.")
                    .toResponse();
            unavailable.getHeaders().add(HttpHeaders.RETRY_AFTER, "1");
            return unavailable;
        }
        String incident = UUID.randomUUID().toString();
        Log.errorf(e, "Unexpected error, incident %s", incident);
        return Problem.of(
                        Response.Status.INTERNAL_SERVER_ERROR,
                        "Something went wrong on our side; the log has incident " + incident + ".")
                .toResponse();
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** remindBefore[2] for a violation inside a body; size for a query parameter; body for a missing body. */
    public static String fieldOf(Path path) {
        List<Path.Node> nodes = new ArrayList<>();
        path.forEach(nodes::add);
        StringBuilder field = new StringBuilder();
        for (int i = 0; i < nodes.size(); i++) {
            Path.Node node = nodes.get(i);
            switch (node.getKind()) {
                case PARAMETER -> {
                    // A body or bean parameter is the root of its fields; a plain one is the field.
                    if (i == nodes.size() - 1) {
                        field.append(node.getName());
                    }
                }
                case PROPERTY -> {
                    // A field of an element of a body that is an array: [3].title.
                    if (node.isInIterable() && node.getIndex() != null) {
                        field.append('[').append(node.getIndex()).append(']');
                    }
                    field.append(field.isEmpty() ? "" : ".").append(node.getName());
                }
                case CONTAINER_ELEMENT, BEAN -> {
                    if (node.getIndex() != null) {
                        field.append('[').append(node.getIndex()).append(']');
                    }
                }
                default -> {}
            }
        }
        return field.toString();
    }
}
