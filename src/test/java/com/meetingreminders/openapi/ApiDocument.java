package com.meetingreminders.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** The service's OpenAPI document as a test reads it: its operations, found by a concrete method and path. */
final class ApiDocument {

    private final JsonNode root;
    private final List<PathTemplate> paths;

    private ApiDocument(JsonNode root) {
        this.root = root;
        List<PathTemplate> templates = new ArrayList<>();
        root.path("paths").fieldNames().forEachRemaining(path -> templates.add(PathTemplate.of(path)));
        // /meetings/batch before /meetings/{id}: a literal segment is the better match.
        templates.sort(Comparator.comparingInt(PathTemplate::parameters));
        this.paths = List.copyOf(templates);
    }

    static ApiDocument read(Path file) throws IOException {
        return new ApiDocument(new ObjectMapper().readTree(file.toFile()));
    }

    static ApiDocument of(String json) throws IOException {
        return new ApiDocument(new ObjectMapper().readTree(json));
    }

    JsonNode root() {
        return root;
    }

    /** The operation this request reached, if the document has one. */
    Optional<DocumentedOperation> operationFor(String method, String concretePath) {
        String key = method.toLowerCase(Locale.ROOT);
        return paths.stream()
                .filter(template -> template.matches(concretePath))
                .findFirst()
                .filter(template -> root.path("paths").path(template.path()).has(key))
                .map(template -> new DocumentedOperation(
                        method.toUpperCase(Locale.ROOT) + " " + template.path(),
                        root.path("paths").path(template.path()).path(key)));
    }

    /** Every operation of the document. */
    List<DocumentedOperation> operations() {
        List<DocumentedOperation> operations = new ArrayList<>();
        root.path("paths")
                .fields()
                .forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
                    if (!operation.getKey().equals("parameters")) {
                        operations.add(new DocumentedOperation(
                                operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey(),
                                operation.getValue()));
                    }
                }));
        return operations;
    }

    record DocumentedOperation(String name, JsonNode node) {

        Set<String> statuses() {
            Set<String> statuses = new TreeSet<>();
            node.path("responses").fieldNames().forEachRemaining(statuses::add);
            return statuses;
        }

        /** Listed by number, by its range (4XX), or by a default. */
        boolean documents(int status) {
            JsonNode responses = node.path("responses");
            return responses.has(String.valueOf(status))
                    || responses.has(status / 100 + "XX")
                    || responses.has("default");
        }
    }

    private record PathTemplate(String path, Pattern pattern, int parameters) {
        static PathTemplate of(String path) {
            StringBuilder regex = new StringBuilder();
            int parameters = 0;
            for (String part : path.split("(?=\\{)|(?<=})")) {
                if (part.startsWith("{")) {
                    regex.append("[^/]+");
                    parameters++;
                } else {
                    regex.append(Pattern.quote(part));
                }
            }
            return new PathTemplate(path, Pattern.compile(regex + "/?"), parameters);
        }

        boolean matches(String concretePath) {
            return pattern.matcher(concretePath).matches();
        }
    }
}
