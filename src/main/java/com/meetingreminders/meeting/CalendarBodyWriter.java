package com.meetingreminders.meeting;

import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyWriter;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/** Writes a meeting as {@code text/calendar} when GET /meetings/{id} is asked for it with Accept. */
@Provider
@Produces(CalendarImport.MEDIA_TYPE)
public class CalendarBodyWriter implements MessageBodyWriter<MeetingView> {

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == MeetingView.class;
    }

    @Override
    public void writeTo(
            MeetingView meeting,
            Class<?> type,
            Type genericType,
            Annotation[] annotations,
            MediaType mediaType,
            MultivaluedMap<String, Object> httpHeaders,
            OutputStream entityStream)
            throws IOException {
        httpHeaders.putSingle("Content-Type", CalendarImport.MEDIA_TYPE + ";charset=UTF-8");
        entityStream.write(CalendarExport.write(meeting).getBytes(StandardCharsets.UTF_8));
    }
}
