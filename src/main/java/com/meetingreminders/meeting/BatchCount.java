package com.meetingreminders.meeting;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.http.InvalidBody;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Counts the meetings of a batch before any of them is bound or validated: a token scan that skips each element and
 * stops at the first one past {@link MeetingBatchResource#MAX_BATCH}, so that 8 MB of {@code {}} costs what 1,001 do. A
 * batch within the limit, or a body that is no array, goes on to the JSON reader unchanged.
 */
@Provider
@BatchCount.Counted
public class BatchCount implements ReaderInterceptor {

    /**
     * Binds the count to POST /meetings/batch alone. RESTEasy Reactive parses a resource method's parameter annotations
     * by reflection on every request to a method that has a reader interceptor; unbound, the count cost every create
     * that.
     */
    @NameBinding
    @Target({ElementType.TYPE, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    @interface Counted {}

    private final ObjectMapper json;

    BatchCount(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        // Vert.x has held the body to quarkus.http.limits.max-body-size already.
        byte[] body = context.getInputStream().readAllBytes();
        if (exceedsLimit(body)) {
            throw new InvalidBody("body", MeetingBatchResource.BATCH_SIZE_RULE);
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }

    private boolean exceedsLimit(byte[] body) throws IOException {
        try (JsonParser parser = json.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return false;
            }
            int count = 0;
            for (JsonToken token = parser.nextToken();
                    token != null && token != JsonToken.END_ARRAY;
                    token = parser.nextToken()) {
                if (++count > MeetingBatchResource.MAX_BATCH) {
                    return true;
                }
                parser.skipChildren();
            }
            return false;
        }
    }
}
