package com.meetingreminders.meeting;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.http.InvalidBody;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;

/**
 * Counts the meetings of a batch before any of them is bound or validated: a token scan that skips each element and
 * stops at the first one past {@link MeetingBatchResource#MAX_BATCH}, so that 8 MB of {@code {}} costs what 1,001 do. A
 * batch within the limit, or a body that is no array, goes on to the JSON reader unchanged.
 */
@Provider
public class BatchCount implements ReaderInterceptor {

    private final ObjectMapper json;

    BatchCount(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (!isBatch(context.getGenericType())) {
            return context.proceed();
        }
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

    private static boolean isBatch(Type type) {
        return type instanceof ParameterizedType list
                && list.getRawType() == List.class
                && list.getActualTypeArguments()[0] == MeetingRequest.class;
    }
}
