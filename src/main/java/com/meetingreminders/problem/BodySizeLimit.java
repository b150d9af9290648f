package com.meetingreminders.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Answers a body announced larger than {@code quarkus.http.limits.max-body-size} with a 413 problem before reading it;
 * Vert.x, which enforces the limit, would answer with an empty body. A chunked body over the limit still gets Vert.x's
 * bare 413.
 */
@ApplicationScoped
public class BodySizeLimit {

    /** Ahead of Quarkus's own handlers, which would start reading the body. */
    private static final int PRIORITY = 1000;

    private final long maxBytes;
    private final String tooLarge;

    BodySizeLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize, ObjectMapper json)
            throws JsonProcessingException {
        this.maxBytes = maxBodySize.asLongValue();
        this.tooLarge = json.writeValueAsString(
                Problem.of(Response.Status.REQUEST_ENTITY_TOO_LARGE, "The body is larger than 64 KiB."));
    }

    void register(@Observes Filters filters) {
        filters.register(
                request -> {
                    String length = request.request().getHeader(HttpHeaders.CONTENT_LENGTH);
                    if (length != null && isOverLimit(length)) {
                        request.response()
                                .setStatusCode(Response.Status.REQUEST_ENTITY_TOO_LARGE.getStatusCode())
                                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                                .putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE)
                                .end(tooLarge);
                    } else {
                        request.next();
                    }
                },
                PRIORITY);
    }

    private boolean isOverLimit(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > maxBytes;
        } catch (NumberFormatException e) {
            // Vert.x refuses a malformed length itself.
            return false;
        }
    }
}
