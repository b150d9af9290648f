package com.meetingreminders.meeting;

import com.meetingreminders.http.BodySizeLimit;
import com.meetingreminders.http.ProblemMappers;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;

/**
 * Holds every body but a batch to 64 KiB as it is read, whatever the transfer: a chunked or HTTP/2 body announces
 * no length for {@link BodySizeLimit} to check. {@link ProblemMappers} answers the 413.
 */
@Provider
public class MeetingBodyLimit implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (!Collection.class.isAssignableFrom(context.getType())) {
            context.setInputStream(new Bounded(context.getInputStream(), BodySizeLimit.MEETING_BODY_LIMIT));
        }
        return context.proceed();
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
