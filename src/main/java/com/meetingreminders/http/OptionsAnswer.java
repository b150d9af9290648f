package com.meetingreminders.http;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Answers OPTIONS with the methods of the path asked, as {@link AllowedMethods} reads them: RESTEasy Reactive's own
 * answer lists every method of the resource class, and is 200 for any path under one, such as {@code /nothing-here}
 * under the web page's {@code /}; here that path is 404.
 */
public class OptionsAnswer {

    private final AllowedMethods allowedMethods;

    OptionsAnswer(AllowedMethods allowedMethods) {
        this.allowedMethods = allowedMethods;
    }

    @ServerRequestFilter(preMatching = true, nonBlocking = true)
    public Response answer(ContainerRequestContext request) {
        if (!request.getMethod().equals(HttpMethod.OPTIONS)) {
            return null;
        }
        return allowedMethods
                .of(request.getUriInfo().getPath())
                .map(allow -> Response.ok().header(HttpHeaders.ALLOW, allow).build())
                .orElseThrow(NotFoundException::new);
    }
}
