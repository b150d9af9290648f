package com.meetingreminders.idempotency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * An answer as it goes out and is kept for its key: status, the headers that matter ({@code Name: value}) and the body's
 * bytes. The first answer is sent from this too, so that a replay is the same byte for byte.
 */
record StoredAnswer(int status, List<String> headers, byte[] body) {

    static final String REPLAYED = "Idempotent-Replayed";

    private static final List<String> KEPT_HEADERS = List.of(HttpHeaders.LOCATION, HttpHeaders.ETAG);

    static StoredAnswer of(Response answer, ObjectMapper json) {
        List<String> headers = new ArrayList<>();
        for (String name : KEPT_HEADERS) {
            String value = answer.getHeaderString(name);
            if (value != null) {
                headers.add(name + ": " + value);
            }
        }
        // As RESTEasy Reactive labels the answers it writes itself, so that keyed and unkeyed answers look alike.
        headers.add(HttpHeaders.CONTENT_TYPE + ": " + MediaType.APPLICATION_JSON + ";charset=UTF-8");
        try {
            return new StoredAnswer(
                    answer.getStatus(), List.copyOf(headers), json.writeValueAsBytes(answer.getEntity()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An answer could not be written as JSON", e);
        }
    }

    boolean isSuccess() {
        return status >= 200 && status < 300;
    }

    Response toResponse(boolean replayed) {
        Response.ResponseBuilder answer = Response.status(status).entity(body);
        for (String header : headers) {
            int colon = header.indexOf(": ");
            answer.header(header.substring(0, colon), header.substring(colon + 2));
        }
        if (replayed) {
            answer.header(REPLAYED, "true");
        }
        return answer.build();
    }
}
