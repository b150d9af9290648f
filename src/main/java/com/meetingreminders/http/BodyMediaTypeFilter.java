package com.meetingreminders.http;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A body sent without a Content-Type is refused like any other media type, instead of being read as JSON. A POST
 * without a body (POST /signing-secret/rotate) needs none. {@link ProblemMappers} writes the 415, as for any other
 * media type.
 */
public class BodyMediaTypeFilter {

    @ServerRequestFilter
    public void requireContentType(ContainerRequestContext request) {
        boolean takesBody = request.getMethod().equals(HttpMethod.POST)
                || request.getMethod().equals(HttpMethod.PUT)
                || request.getMethod().equals(HttpMethod.PATCH);
        if (takesBody && hasBody(request) && request.getMediaType() == null) {
            throw new NotSupportedException();
        }
    }

    /** An HTTP/1.1 request has a body only with a Content-Length above 0 or a Transfer-Encoding (RFC 9112, 6.3). */
    private static boolean hasBody(ContainerRequestContext request) {
        return request.getLength() > 0 || request.getHeaderString("Transfer-Encoding") != null;
    }
}
