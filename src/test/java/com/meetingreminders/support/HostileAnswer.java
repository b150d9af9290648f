package com.meetingreminders.support;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How a hostile or broken receiver answers ({@link WebhookReceiver#answerHostile}): it drips its answer, sends a huge
 * body generated on the fly (never held in memory), or closes the connection without a word. It counts the bytes of
 * body it managed to write, so that a test can tell that the service stopped reading.
 */
public final class HostileAnswer {

    private static final byte[] CHUNK = new byte[64 * 1024];

    private final Kind kind;
    private final int status;
    private final long bodyBytes;
    private final AtomicLong written = new AtomicLong();
    private final AtomicInteger inProgress = new AtomicInteger();

    private enum Kind {
        DRIP,
        HUGE_BODY,
        CLOSE
    }

    private HostileAnswer(Kind kind, int status, long bodyBytes) {
        this.kind = kind;
        this.status = status;
        this.bodyBytes = bodyBytes;
    }

    /** 200 at once, then a body of one byte a second, until the client goes away or the receiver closes. */
    public static HostileAnswer drip() {
        return drip(200);
    }

    /** This status at once, then a body of one byte a second, until the client goes away or the receiver closes. */
    public static HostileAnswer drip(int status) {
        return new HostileAnswer(Kind.DRIP, status, Long.MAX_VALUE);
    }

    /** This status with a body of this many bytes, written as fast as the client reads. */
    public static HostileAnswer hugeBody(int status, long bytes) {
        return new HostileAnswer(Kind.HUGE_BODY, status, bytes);
    }

    /** Closes the connection after reading the request, with no answer at all. */
    public static HostileAnswer closeConnection() {
        return new HostileAnswer(Kind.CLOSE, 0, 0);
    }

    /** Bytes of body written to clients so far, over every request. */
    public long bytesWritten() {
        return written.get();
    }

    /** Answers still being written: a client that hung up ends its answer at the next write. */
    public int inProgress() {
        return inProgress.get();
    }

    void answer(HttpExchange exchange, CountDownLatch closing) throws IOException {
        inProgress.incrementAndGet();
        try {
            write(exchange, closing);
        } finally {
            inProgress.decrementAndGet();
        }
    }

    private void write(HttpExchange exchange, CountDownLatch closing) throws IOException {
        if (kind == Kind.CLOSE) {
            // Closed before any answer was sent, the exchange closes the connection itself.
            exchange.close();
            return;
        }
        try (OutputStream body = exchange.getResponseBody()) {
            exchange.sendResponseHeaders(status, kind == Kind.DRIP ? 0 : bodyBytes);
            long left = bodyBytes;
            while (left > 0 && closing.getCount() > 0) {
                int size = kind == Kind.DRIP ? 1 : (int) Math.min(CHUNK.length, left);
                body.write(CHUNK, 0, size);
                body.flush();
                written.addAndGet(size);
                left -= size;
                if (kind == Kind.DRIP && awaitClosing(closing)) {
                    return;
                }
            }
        } catch (IOException clientWentAway) {
            // What a hostile receiver sees when the client stops reading: the test counts what was written.
        } finally {
            exchange.close();
        }
    }

    /** A second's pause between two drops that ends early when the receiver closes; true if it is closing. */
    private static boolean awaitClosing(CountDownLatch closing) {
        try {
            return closing.await(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }
}
