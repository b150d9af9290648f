package com.meetingreminders.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Bodies up to 64 KiB, as the API promises, except POST /meetings/batch, which may take up to
 * {@code quarkus.http.limits.max-body-size} (Vert.x enforces that one for every route). A body announced larger is
 * answered 413 with a problem before it is read; one of unknown length (chunked, or HTTP/2 without a Content-Length)
 * is held to 64 KiB as it is read. Both answers are {@link Problem}'s.
 */
@ApplicationScoped
public class BodySizeLimit {

    static final long MEETING_BODY_LIMIT = 64 * 1024;
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

    /**
     * Holds a body of unknown length to the meeting limit as the resource reads it; {@link ProblemMappers} answers the
     * 413. A request filter, not a reader interceptor: with one, RESTEasy Reactive parses the resource method's
     * parameter annotations by reflection on every request that has a body (5% of a replica's CPU through creates).
     */
    @ServerRequestFilter
    public void holdUnannouncedBody(ContainerRequestContext context, HttpServerRequest request) {
        boolean takesBody = request.method() == HttpMethod.POST
                || request.method() == HttpMethod.PUT
                || request.method() == HttpMethod.PATCH;
        if (takesBody
                && request.getHeader(HttpHeaders.CONTENT_LENGTH) == null
                && !request.path().equals(BATCH_PATH)) {
            context.setEntityStream(new Bounded(context.getEntityStream(), MEETING_BODY_LIMIT));
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

    private static final class Bounded extends FilterInputStream {
        private long left;

        Bounded(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                consumed(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                consumed(n);
            }
            return n;
        }

        private void consumed(int bytes) {
            left -= bytes;
            if (left < 0) {
                throw new WebApplicationException(Response.Status.REQUEST_ENTITY_TOO_LARGE);
            }
        }
    }
}
