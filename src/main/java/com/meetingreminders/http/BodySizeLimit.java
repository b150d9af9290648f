package com.meetingreminders.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Bodies up to 64 KiB, as the API promises, except POST /meetings/batch, which may take up to
 * {@code quarkus.http.limits.max-body-size} (Vert.x enforces that one for every route). A body announced larger is
 * answered 413 with a problem before it is read; one of unknown length is held to 64 KiB as it is read
 * (the meeting API's reader interceptor, {@code MeetingBodyLimit}). Both answers are {@link Problem}'s.
 */
@ApplicationScoped
public class BodySizeLimit {

    public static final long MEETING_BODY_LIMIT = 64 * 1024;
    static final String BATCH_PATH = "/meetings/batch";

    /** Ahead of Quarkus's own handlers, which would start reading the body. */
    private static final int PRIORITY = 1000;

    private final long batchLimit;
    private final Handler<RoutingContext> meetingTooLarge;
    private final Handler<RoutingContext> batchTooLarge;

    BodySizeLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize, ObjectMapper json)
            throws JsonProcessingException {
        this.batchLimit = maxBodySize.asLongValue();
        this.meetingTooLarge = Problem.meetingTooLarge().beforeJaxRs(json);
        this.batchTooLarge = Problem.tooLarge(batchLimit).beforeJaxRs(json);
    }

    void register(@Observes Filters filters) {
        filters.register(this::check, PRIORITY);
    }

    private void check(RoutingContext context) {
        HttpServerRequest request = context.request();
        boolean batch = request.path().equals(BATCH_PATH);
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && isOver(length, batch ? batchLimit : MEETING_BODY_LIMIT)) {
            (batch ? batchTooLarge : meetingTooLarge).handle(context);
        } else {
            context.next();
        }
    }

    private static boolean isOver(String contentLength, long limit) {
        try {
            return Long.parseLong(contentLength.trim()) > limit;
        } catch (NumberFormatException e) {
            // Vert.x refuses a malformed length itself.
            return false;
        }
    }
}
