package com.meetingreminders.openapi;

import com.meetingreminders.http.ProblemMappers;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * The schema of {@link com.meetingreminders.http.Problem}, the RFC 9457 body of every error answer, and an
 * example per status. Written out rather than scanned: the record is referenced by no operation's signature, and the
 * scanner documents only what it meets there. OpenApiDocumentTest holds it to the record's components.
 */
final class ProblemSchema {

    private static final Map<Integer, String> DETAILS = Map.ofEntries(
            Map.entry(400, "The request breaks 1 rule(s)."),
            Map.entry(401, "Send a valid bearer token: Authorization: Bearer <JWT>."),
            Map.entry(403, "The caller may not do this."),
            Map.entry(404, "There is no meeting 3f0e9c1a-7b7e-4a55-9a43-0d1c2b3a4f5e."),
            Map.entry(406, ProblemMappers.NOT_ACCEPTABLE),
            Map.entry(
                    409,
                    "A request with this Idempotency-Key is still being processed; retry shortly to get its answer."),
            Map.entry(412, "The meeting has changed since version 3; fetch it again before changing it."),
            Map.entry(413, "The body is over 64 KiB."),
            Map.entry(415, ProblemMappers.UNSUPPORTED_MEDIA_TYPE),
            Map.entry(
                    422,
                    "This Idempotency-Key came with another request within 24 hours; a new request needs a new key."),
            Map.entry(429, "Over 10 requests a second; try again in 1 s."),
            Map.entry(
                    500,
                    "Something went wrong on our side; the log has incident 5b1d0c3e-0f3c-4d7e-9a52-1f0e2d3c4b5a."),
            Map.entry(503, "The database cannot be reached right now; nothing was changed. Try again shortly."));

    private ProblemSchema() {}

    static Schema problem() {
        return OASFactory.createSchema()
                .addType(Schema.SchemaType.OBJECT)
                .description("An RFC 9457 problem (application/problem+json): the body of every error answer")
                .addProperty(
                        "type",
                        string("about:blank, or one of the service's problem types such as"
                                + " /problems/invalid-request and /problems/limit-exceeded"))
                .addProperty("title", string("The status's short name, or the problem type's title"))
                .addProperty(
                        "status",
                        OASFactory.createSchema()
                                .addType(Schema.SchemaType.INTEGER)
                                .description("The HTTP status"))
                .addProperty("detail", string("What went wrong, for a person to read"))
                .addProperty(
                        "errors",
                        OASFactory.createSchema()
                                .addType(Schema.SchemaType.ARRAY)
                                .description("For an invalid request: each broken rule, at most 100")
                                .items(OASFactory.createSchema().ref("#/components/schemas/FieldError")))
                .addProperty(
                        "moreErrors",
                        OASFactory.createSchema()
                                .addType(Schema.SchemaType.INTEGER)
                                .description("How many broken rules there are beyond the 100 listed"))
                .required(List.of("type", "title", "status"));
    }

    static Schema fieldError() {
        return OASFactory.createSchema()
                .addType(Schema.SchemaType.OBJECT)
                .description("One broken rule of a request")
                .addProperty("field", string("The field as a JSON path, such as remindBefore[2] or [3].title"))
                .addProperty("message", string("What is wrong with it"))
                .required(List.of("field", "message"));
    }

    /** A problem as the service answers it with this status. */
    static Map<String, Object> exampleOf(int status) {
        Map<String, Object> example = new LinkedHashMap<>();
        String[] typeAndTitle = typeAndTitleOf(status);
        example.put("type", typeAndTitle[0]);
        example.put("title", typeAndTitle[1]);
        example.put("status", status);
        example.put("detail", DETAILS.getOrDefault(status, "The request could not be answered."));
        if (status == 400) {
            example.put("errors", List.of(Map.of("field", "remindBefore[0]", "message", "must be positive")));
        }
        return example;
    }

    /** As the service types and titles its problems: its own problem type, or about:blank and the reason phrase. */
    private static String[] typeAndTitleOf(int status) {
        return switch (status) {
            case 400 -> new String[] {"/problems/invalid-request", "Invalid request"};
            case 409 -> new String[] {"/problems/idempotency-key-in-use", "Idempotency-Key in use"};
            case 422 -> new String[] {"/problems/idempotency-key-reused", "Idempotency-Key reused"};
            case 429 -> new String[] {"/problems/limit-exceeded", "Limit exceeded"};
            default -> {
                Response.Status known = Response.Status.fromStatusCode(status);
                yield new String[] {"about:blank", known == null ? "Error" : known.getReasonPhrase()};
            }
        };
    }

    private static Schema string(String description) {
        return OASFactory.createSchema().addType(Schema.SchemaType.STRING).description(description);
    }
}
