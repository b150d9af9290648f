package com.meetingreminders.support;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Writes down the method, path and status of every answer a test gets through RestAssured, so that OpenApiStatusesIT
 * can check, after all other tests, that the API description documents each status the service was seen to give.
 * Hooked in like {@link AuthenticatedByDefault}, through both service files, so every test is covered without saying
 * so. The build names the folder ({@value #FOLDER_PROPERTY}, one per Maven run); without it nothing is written.
 */
public class ObservedStatuses implements BeforeAllCallback, QuarkusTestBeforeEachCallback {

    public static final String FOLDER_PROPERTY = "observed.statuses.folder";

    /** Known by its class name, for the same reason as {@link AuthenticatedByDefault}'s filter. */
    static final class Recorder implements Filter {

        private static final Set<String> WRITTEN = ConcurrentHashMap.newKeySet();

        /** One file per JVM and class loader: a Quarkus test and a plain one in the same JVM write apart. */
        private static final String FILE = ProcessHandle.current().pid() + "-"
                + Integer.toHexString(System.identityHashCode(Recorder.class.getClassLoader())) + ".tsv";

        private static volatile String currentTest = "?";

        @Override
        public Response filter(
                FilterableRequestSpecification request,
                FilterableResponseSpecification response,
                FilterContext context) {
            Response answer = context.next(request, response);
            record(request.getMethod(), request.getURI(), answer.statusCode());
            return answer;
        }

        private static void record(String method, String uri, int status) {
            String folder = System.getProperty(FOLDER_PROPERTY);
            String path;
            try {
                path = URI.create(uri).getRawPath();
            } catch (IllegalArgumentException notAUri) {
                // A hostile test's path that no URI parser takes: it reached no operation.
                return;
            }
            if (folder == null || path == null || path.startsWith("/q/")) {
                return;
            }
            String line = method + "\t" + path + "\t" + status + "\t" + currentTest + "\n";
            if (WRITTEN.add(method + " " + path + " " + status)) {
                write(Path.of(folder, FILE), line);
            }
        }

        private static synchronized void write(Path file, String line) {
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(
                        file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        install(context.getRequiredTestClass().getName());
    }

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        install(context.getTestInstance().getClass().getName());
    }

    private static void install(String testClass) {
        Recorder.currentTest = testClass;
        if (RestAssured.filters().stream()
                .noneMatch(filter -> filter.getClass().getName().equals(Recorder.class.getName()))) {
            List<Filter> filters = new ArrayList<>(RestAssured.filters());
            filters.add(new Recorder());
            RestAssured.replaceFiltersWith(filters);
        }
    }
}
