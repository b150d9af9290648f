package com.meetingreminders.meeting;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/**
 * Reads a {@code text/calendar} body of POST /meetings into the {@link MeetingRequest} the JSON body would give, so
 * that validation, limits, the Idempotency-Key and the create itself are the JSON form's. The 64 KiB bound on bodies
 * applies as it is read. The occurrences it moves, which JSON has no field for, go to {@link ImportedMoves}.
 */
@Provider
@Consumes(CalendarImport.MEDIA_TYPE)
public class CalendarBodyReader implements MessageBodyReader<MeetingRequest> {

    private final ImportedMoves moves;

    CalendarBodyReader(ImportedMoves moves) {
        this.moves = moves;
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == MeetingRequest.class;
    }

    @Override
    public MeetingRequest readFrom(
            Class<MeetingRequest> type,
            Type genericType,
            Annotation[] annotations,
            MediaType mediaType,
            MultivaluedMap<String, String> httpHeaders,
            InputStream entityStream)
            throws IOException {
        CalendarImport.Imported imported = CalendarImport.read(entityStream.readAllBytes());
        moves.set(imported.moved());
        return imported.meeting();
    }
}
