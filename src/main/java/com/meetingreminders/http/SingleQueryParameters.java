package com.meetingreminders.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A query parameter given twice is refused, naming it: every parameter of the API takes one value, and the framework
 * would read the first of several and drop the rest, so that {@code status=FAILED&status=DELIVERED} listed FAILED
 * alone, as if the second had not been asked for.
 */
public class SingleQueryParameters {

    @ServerRequestFilter
    public void refuseRepeated(ContainerRequestContext request) {
        List<Problem.FieldError> repeated = request.getUriInfo().getQueryParameters().entrySet().stream()
                .filter(parameter -> parameter.getValue().size() > 1)
                .map(Map.Entry::getKey)
                .sorted()
                .map(name -> new Problem.FieldError(name, "must be given once"))
                .toList();
        if (!repeated.isEmpty()) {
            throw new InvalidBody(Problem.brokenRules(repeated.size()), repeated, 0);
        }
    }
}
