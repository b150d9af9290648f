package com.meetingreminders.openapi;

import com.meetingreminders.http.Problem;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Documents the error answers every operation can give, where they come from the service as a whole rather than
 * from the operation (authentication, fair-use limits, body reading, outages), so that an endpoint added later has
 * them too; and gives every error answer, documented here or on the operation, the problem+json body it has.
 * Operations document their own statuses (404, 409, 412, 422) and success bodies with {@code @APIResponse}.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class ProblemResponses implements OASFilter {

    static final String PROBLEM_REF = "#/components/schemas/Problem";

    /** A path with a template segment names one thing, which may not exist. */
    private static final Pattern TEMPLATED = Pattern.compile("\\{[^}]+}");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        openAPI.getComponents().addSchema("Problem", ProblemSchema.problem());
        openAPI.getComponents().addSchema("FieldError", ProblemSchema.fieldError());
        if (openAPI.getPaths() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().forEach((path, item) -> item.getOperations()
                .forEach((method, operation) -> document(path, method, operation)));
    }

    private static void document(String path, PathItem.HttpMethod method, Operation operation) {
        APIResponses responses = operation.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            operation.setResponses(responses);
        }
        boolean secured =
                operation.getSecurity() != null && !operation.getSecurity().isEmpty();
        boolean hasBody = operation.getRequestBody() != null;
        // A path parameter the service cannot read is a 404 (no such thing); a query or header parameter is a 400.
        boolean hasParameters = operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(parameter -> parameter.getIn() != Parameter.In.PATH);
        if (secured) {
            addIfAbsent(
                    responses,
                    401,
                    "No bearer token, or one that does not verify (signature, issuer, audience,"
                            + " expiry); WWW-Authenticate: Bearer");
            addIfAbsent(
                    responses,
                    429,
                    "Over a fair-use limit of the caller (reminders.limits.*); Retry-After says"
                            + " when to try again. Nothing is changed");
            // Quarkus adds a 403 to every secured operation; one that only needs a caller never answers it.
            APIResponse forbidden = responses.getAPIResponse("403");
            if (forbidden != null && "Not Allowed".equals(forbidden.getDescription())) {
                responses.removeAPIResponse("403");
            }
        }
        if (hasBody || hasParameters) {
            addIfAbsent(
                    responses,
                    400,
                    "The request breaks a rule: the problem's errors name each field and what"
                            + " is wrong with it. Nothing is changed");
        }
        if (hasBody) {
            addIfAbsent(responses, 413, "The body is over its size limit (64 KiB, 8 MiB for a batch)");
            addIfAbsent(responses, 415, "The body is not application/json");
        }
        if (TEMPLATED.matcher(path).find()) {
            addIfAbsent(responses, 404, "Nothing is here for the caller: no such id, or another caller's");
        }
        addIfAbsent(responses, 406, "The Accept header admits none of the media types this operation answers with");
        addIfAbsent(
                responses,
                500,
                "Something went wrong on the service's side; the detail names an incident in" + " its log");
        addIfAbsent(
                responses,
                503,
                "The database cannot be reached right now; nothing was changed. Retry-After"
                        + " says when to try again");
        responses.getAPIResponses().forEach((status, response) -> withProblemBody(status, response));
    }

    private static void addIfAbsent(APIResponses responses, int status, String description) {
        if (!responses.hasAPIResponse(String.valueOf(status))) {
            responses.addAPIResponse(
                    String.valueOf(status), OASFactory.createAPIResponse().description(description));
        }
    }

    /** An error answer without a body described gets the problem body, with an example of its status. */
    private static void withProblemBody(String status, APIResponse response) {
        if (!isError(status)) {
            return;
        }
        if (response.getDescription() == null || response.getDescription().isBlank()) {
            response.setDescription("An error; the problem says what");
        }
        Content content = response.getContent();
        if (content == null) {
            content = OASFactory.createContent();
            response.setContent(content);
        }
        if (content.getMediaTypes().isEmpty()) {
            content.addMediaType(
                    Problem.MEDIA_TYPE,
                    OASFactory.createMediaType()
                            .schema(OASFactory.createSchema().ref(PROBLEM_REF))
                            .examples(Map.of(
                                    "problem",
                                    OASFactory.createExample()
                                            .value(ProblemSchema.exampleOf(Integer.parseInt(status))))));
        }
        if ("401".equals(status) && response.getHeaders() == null) {
            response.addHeader(
                    "WWW-Authenticate",
                    OASFactory.createHeader()
                            .description("Bearer")
                            .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
        }
        if (List.of("429", "503").contains(status) && response.getHeaders() == null) {
            response.addHeader(
                    "Retry-After",
                    OASFactory.createHeader()
                            .description("Seconds to wait before trying again")
                            .schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)));
        }
    }

    private static boolean isError(String status) {
        return status.length() == 3 && (status.charAt(0) == '4' || status.charAt(0) == '5');
    }
}
