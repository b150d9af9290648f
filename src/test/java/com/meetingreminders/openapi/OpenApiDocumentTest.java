package com.meetingreminders.openapi;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.meetingreminders.http.Problem;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The API description is one a client generator can use: each operation says how it is authenticated, and each of its
 * answers has a description and, unless it has no body, a schema; every error answer is problem+json with the Problem
 * schema and an example. Rules over every operation, so that an endpoint added later is held to them too.
 */
@QuarkusTest
class OpenApiDocumentTest {

    private ApiDocument document;

    @BeforeEach
    void readDocument() throws IOException {
        document = ApiDocument.of(given().get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    @Test
    void theBearerSchemeGuardsEveryOperation() {
        JsonNode bearer =
                document.root().path("components").path("securitySchemes").path("bearer");
        assertThat(bearer.path("type").asText()).isEqualTo("http");
        assertThat(bearer.path("scheme").asText()).isEqualTo("bearer");
        assertThat(bearer.path("bearerFormat").asText()).isEqualTo("JWT");
        assertThat(document.operations())
                .isNotEmpty()
                .allSatisfy(operation -> assertThat(
                                operation.node().path("security").findValues("bearer"))
                        .as(operation.name())
                        .isNotEmpty())
                .allSatisfy(operation ->
                        assertThat(operation.statuses()).as(operation.name()).contains("401", "429", "500", "503"));
    }

    @Test
    void everyAnswerIsDescribedAndEveryBodyHasASchema() {
        List<String> broken = new ArrayList<>();
        for (ApiDocument.DocumentedOperation operation : document.operations()) {
            operation.node().path("responses").fields().forEachRemaining(answer -> {
                String where = operation.name() + " " + answer.getKey();
                JsonNode response = answer.getValue();
                if (response.path("description").asText().isBlank()) {
                    broken.add(where + ": no description");
                }
                if (!answer.getKey().equals("204") && !hasSchemaInEveryMediaType(response)) {
                    broken.add(where + ": no body schema");
                }
            });
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void everyErrorAnswerIsAProblemWithAnExample() {
        List<String> broken = new ArrayList<>();
        for (ApiDocument.DocumentedOperation operation : document.operations()) {
            operation.node().path("responses").fields().forEachRemaining(answer -> {
                if (answer.getKey().startsWith("4") || answer.getKey().startsWith("5")) {
                    JsonNode problem = answer.getValue().path("content").path(Problem.MEDIA_TYPE);
                    if (!problem.path("schema").path("$ref").asText().equals(ProblemResponses.PROBLEM_REF)
                            || problem.path("examples").isEmpty()) {
                        broken.add(operation.name() + " " + answer.getKey());
                    }
                }
            });
        }
        assertThat(broken)
                .as("error answers without a problem+json body and example")
                .isEmpty();
    }

    @Test
    void theProblemSchemaHasTheFieldsOfTheProblemsTheServiceSends() {
        List<String> fields = new ArrayList<>();
        document.root()
                .path("components")
                .path("schemas")
                .path("Problem")
                .path("properties")
                .fieldNames()
                .forEachRemaining(fields::add);
        assertThat(fields)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(Problem.class.getRecordComponents())
                        .map(RecordComponent::getName)
                        .toList());
    }

    @Test
    void requestBodiesHaveASchemaWithExamples() {
        JsonNode create = document.root().path("paths").path("/meetings").path("post");
        assertThat(create.path("requestBody")
                        .path("content")
                        .path("application/json")
                        .path("schema")
                        .path("$ref")
                        .asText())
                .endsWith("/MeetingRequest");
        JsonNode request = document.root().path("components").path("schemas").path("MeetingRequest");
        // A list's example is on its items. attendees has none yet: the scanner puts no example on a list of addresses.
        request.path("properties").fields().forEachRemaining(field -> {
            if (!field.getKey().equals("attendees")) {
                JsonNode property = field.getValue();
                assertThat(
                                property.path("examples").isEmpty()
                                        ? property.path("items").path("examples")
                                        : property.path("examples"))
                        .as("MeetingRequest." + field.getKey())
                        .isNotEmpty();
            }
        });
    }

    private static boolean hasSchemaInEveryMediaType(JsonNode response) {
        JsonNode content = response.path("content");
        if (content.isEmpty()) {
            return false;
        }
        List<Boolean> schemas = new ArrayList<>();
        content.fields()
                .forEachRemaining(
                        media -> schemas.add(!media.getValue().path("schema").isEmpty()));
        return !schemas.contains(false);
    }
}
