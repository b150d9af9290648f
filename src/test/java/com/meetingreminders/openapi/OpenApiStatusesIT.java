package com.meetingreminders.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.meetingreminders.support.ObservedStatuses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every status a test of this Maven run saw an operation answer is documented for that operation in the API
 * description the build stored (target/openapi/openapi.json), so that a client generated from it knows every answer
 * it can get. Runs in a failsafe execution of its own, after every other test (pom.xml); the tests' answers are
 * written down by {@link ObservedStatuses}. A path that matches no operation (a test of an unknown URL, a method the
 * resource does not take) is no operation's answer and is left out.
 */
class OpenApiStatusesIT {

    @Test
    void everyStatusATestSawIsDocumentedForItsOperation() throws IOException {
        String folder = System.getProperty(ObservedStatuses.FOLDER_PROPERTY);
        assumeTrue(folder != null && Files.isDirectory(Path.of(folder)), "No test of this run wrote down an answer");
        ApiDocument document = ApiDocument.read(Path.of("target", "openapi", "openapi.json"));
        Set<String> undocumented = new TreeSet<>();
        int checked = 0;
        for (Observation seen : observations(Path.of(folder))) {
            var operation = document.operationFor(seen.method(), seen.path());
            if (operation.isEmpty()) {
                continue;
            }
            checked++;
            if (!operation.get().documents(seen.status())) {
                undocumented.add(operation.get().name() + " answered " + seen.status() + " (seen by " + seen.test()
                        + " at " + seen.path() + "); documented: "
                        + operation.get().statuses());
            }
        }
        System.out.printf("OpenApiStatusesIT: %d observed answers of documented operations checked%n", checked);
        assertThat(undocumented)
                .as("Statuses tests saw that the OpenAPI document does not list (add @APIResponse to the operation,"
                        + " or to openapi.ProblemResponses when every operation can answer it)")
                .isEmpty();
    }

    private static List<Observation> observations(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.toString().endsWith(".tsv"))
                    .flatMap(OpenApiStatusesIT::lines)
                    .map(Observation::parse)
                    .distinct()
                    .toList();
        }
    }

    private static Stream<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream().filter(line -> !line.isBlank());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One line of ObservedStatuses: method, raw path, status, test class. */
    record Observation(String method, String path, int status, String test) {
        static Observation parse(String line) {
            String[] parts = line.split("\t", 4);
            return new Observation(parts[0], parts[1], Integer.parseInt(parts[2]), parts[3]);
        }
    }
}
