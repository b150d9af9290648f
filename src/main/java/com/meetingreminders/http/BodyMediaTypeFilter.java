package com.meetingreminders.http;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A body sent without a Content-Type is refused like any other media type, instead of being read as JSON. So is a
 * body whose Content-Type is a range ({@code application/*}, {@code *}{@code /*}), which names no one media type and
 * which JAX-RS would match to the first that fits, and one sent with two Content-Type headers, of which JAX-RS reads
 * the first. A POST without a body (POST /signing-secret/rotate) needs none. {@link ProblemMappers} writes the 415, as
 * for any other media type.
 */
public class BodyMediaTypeFilter {

    @ServerRequestFilter
    public void requireContentType(ContainerRequestContext request, HttpServerRequest received) {
        boolean takesBody = request.getMethod().equals(HttpMethod.POST)
                || request.getMethod().equals(HttpMethod.PUT)
                || request.getMethod().equals(HttpMethod.PATCH);
        if (!takesBody || !hasBody(request)) {
            return;
        }
        MediaType type = request.getMediaType();
        // As received: JAX-RS's view of the headers keeps one Content-Type.
        List<String> sent = received.headers().getAll(HttpHeaders.CONTENT_TYPE);
        if (type == null || type.isWildcardType() || type.isWildcardSubtype() || sent.size() > 1) {
            throw new NotSupportedException();
        }
    }

    /** An HTTP/1.1 request has a body only with a Content-Length above 0 or a Transfer-Encoding (RFC 9112, 6.3). */
    private static boolean hasBody(ContainerRequestContext request) {
        return request.getLength() > 0 || request.getHeaderString("Transfer-Encoding") != null;
    }
}
