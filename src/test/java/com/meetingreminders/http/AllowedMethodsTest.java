package com.meetingreminders.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.support.Problems;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * OPTIONS and every 405 name the methods of the path asked (RFC 9110: a 405 must carry Allow), held against the
 * OpenAPI document, so that a path added later is held to it too.
 */
@QuarkusTest
class AllowedMethodsTest {

    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

    @Test
    void optionsNameTheMethodsTheDocumentGivesEachPath() throws IOException {
        JsonNode paths = new ObjectMapper()
                .readTree(given().get("/q/openapi?format=json").asString())
                .path("paths");
        assertThat(paths.size()).isGreaterThan(5);

        paths.fields().forEachRemaining(path -> {
            String concrete = path.getKey().replaceAll("\\{[^}]+}", "1");
            Set<String> documented = new TreeSet<>();
            path.getValue().fieldNames().forEachRemaining(name -> documented.add(name.toUpperCase(Locale.ROOT)));
            documented.retainAll(METHODS);

            Response options = given().options(concrete);

            assertThat(options.statusCode()).as("OPTIONS " + concrete).isEqualTo(200);
            assertThat(methods(options)).as("OPTIONS " + concrete).isEqualTo(allowed(documented));
            for (String refused : METHODS) {
                Response answer = documented.contains(refused) ? null : given().request(refused, concrete);
                if (answer != null) {
                    // 404 where routing reads the path as another's: GET /meetings/batch as a meeting's id.
                    assertThat(answer.statusCode()).as(refused + " " + concrete).isIn(404, 405);
                }
                if (answer != null && answer.statusCode() == 405) {
                    assertThat(methods(answer)).as(refused + " " + concrete).isEqualTo(allowed(documented));
                }
            }
        });
    }

    @Test
    void aMethodThePathDoesNotTakeIs405WithAllow() {
        Response post = given().contentType("application/json").body("{}").post("/meetings/" + UUID.randomUUID());
        Response delete = given().delete("/meetings");

        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.contentType()).isEqualTo(Problems.MEDIA_TYPE);
        assertThat(methods(post)).containsExactlyInAnyOrder("GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS");
        assertThat(delete.statusCode()).isEqualTo(405);
        assertThat(methods(delete)).containsExactlyInAnyOrder("GET", "HEAD", "POST", "OPTIONS");
    }

    @Test
    void readsThePathAsRoutingDoes() {
        assertThat(methods(given().options("/"))).containsExactlyInAnyOrder("GET", "HEAD", "OPTIONS");
        assertThat(methods(given().options("/meetings/"))).containsExactlyInAnyOrder("GET", "HEAD", "POST", "OPTIONS");
        assertThat(methods(given().urlEncodingEnabled(false).options("/meetings/%62atch")))
                .containsExactlyInAnyOrder("POST", "OPTIONS");
        Response matrix = given().urlEncodingEnabled(false).delete("/meetings;v=1");
        assertThat(matrix.statusCode()).isEqualTo(405);
        assertThat(methods(matrix)).containsExactlyInAnyOrder("GET", "HEAD", "POST", "OPTIONS");
    }

    @Inject
    BeanManager beans;

    /** A native image reads no resource's methods unless they are registered, and would start without Allow. */
    @Test
    void everyResourceIsRegisteredForReflection() throws ClassNotFoundException {
        Set<Class<?>> resources = beans.getBeans(Object.class, Any.Literal.INSTANCE).stream()
                .<Class<?>>map(Bean::getBeanClass)
                .filter(type -> type.isAnnotationPresent(Path.class))
                .collect(Collectors.toSet());
        RegisterForReflection registered =
                Class.forName("com.meetingreminders.NativeReflection").getAnnotation(RegisterForReflection.class);

        assertThat(resources).hasSizeGreaterThan(5);
        assertThat(registered.targets()).contains(resources.toArray(Class<?>[]::new));
    }

    @Test
    void optionsOfAPathWithNoResourceIs404() {
        given().options("/nothing-here").then().statusCode(404);
        given().options("/app.css").then().statusCode(404);
    }

    private static Set<String> allowed(Set<String> documented) {
        return Stream.concat(
                        documented.stream(),
                        Stream.concat(
                                documented.contains("GET") ? Stream.of("HEAD") : Stream.empty(), Stream.of("OPTIONS")))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> methods(Response answer) {
        String allow = answer.header("Allow");
        assertThat(allow).as("Allow").isNotNull();
        return Arrays.stream(allow.split(",")).map(String::trim).collect(Collectors.toCollection(TreeSet::new));
    }
}
