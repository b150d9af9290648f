package com.meetingreminders.notify;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.RequestOptions;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * One webhook attempt, from waiting for a pooled connection to the end of the answer, within one absolute deadline
 * (a receiver that drips its answer cannot keep it alive byte by byte). The attempt's outcome is the answer's status,
 * known as soon as its headers are: a receiver that said 2xx has the notification, whatever its body then does, and
 * must not get it again. The body is read after that, up to {@link #MAX_ANSWER_BYTES}, and thrown away, so that a
 * short answer leaves its connection free for the next request. At the deadline the request is reset: a request that
 * was still waiting for a connection is never sent late, one without an answer fails, and a body still coming loses
 * its connection; a body over the limit loses it at once.
 */
final class WebhookExchange {

    /** The most of an answer's body that is read; a receiver has nothing to tell us beyond its status. */
    static final long MAX_ANSWER_BYTES = 64 * 1024;

    private final Vertx vertx;
    private final HttpClient client;
    private final Duration timeout;
    private final Duration left;
    private final CompletableFuture<Integer> answered = new CompletableFuture<>();
    /** The request once a connection was obtained; guarded by this. */
    private HttpClientRequest request;

    private long timer;
    private long bodyBytes;
    /** Whether the answer has been read to its end or given up on: the deadline then has nothing left to cut. */
    private volatile boolean over;

    /**
     * An attempt of {@code timeout} (the one its failures name) that has {@code left} of it to run: the time a lookup of
     * the receiver's host took is spent.
     */
    WebhookExchange(Vertx vertx, HttpClient client, Duration timeout, Duration left) {
        this.vertx = vertx;
        this.client = client;
        this.timeout = timeout;
        this.left = left;
    }

    /** Starts the attempt; the future completes with the answer's status, or fails, by the deadline at the latest. */
    CompletableFuture<Integer> start(RequestOptions options, String body) {
        timer = vertx.setTimer(left.toMillis(), fired -> expire());
        client.request(options).onComplete(obtained -> {
            if (obtained.failed()) {
                fail(obtained.cause());
                return;
            }
            HttpClientRequest obtainedRequest = obtained.result();
            synchronized (this) {
                if (answered.isDone()) {
                    // The deadline passed while it waited for a connection: it must never go out now.
                    obtainedRequest.reset();
                    return;
                }
                request = obtainedRequest;
            }
            // A reset of ours (deadline, answer too long) ends here, instead of in an error line of the client's.
            obtainedRequest.exceptionHandler(this::fail);
            // The answer is read inside send()'s own callback, in the same dispatch as its headers: a later step may
            // run after an empty answer has already ended, and would then wait for it until the deadline.
            obtainedRequest.send(Buffer.buffer(body)).onComplete(sent -> {
                if (sent.failed()) {
                    fail(sent.cause());
                } else {
                    read(sent.result());
                }
            });
        });
        return answered;
    }

    private void read(HttpClientResponse answer) {
        answered.complete(answer.statusCode());
        // The outcome is known: a body that fails or is cut off only ends the exchange.
        answer.exceptionHandler(failed -> end());
        answer.handler(chunk -> {
            bodyBytes += chunk.length();
            if (bodyBytes > MAX_ANSWER_BYTES) {
                end();
                answer.request().reset();
            }
        });
        answer.endHandler(ended -> end());
    }

    private void expire() {
        HttpClientRequest underWay;
        boolean expired;
        synchronized (this) {
            // Under the lock that start() takes, so that a connection obtained now sees the attempt over.
            underWay = request;
            expired = answered.completeExceptionally(new DeliveryFailure(
                    underWay == null
                            ? "no connection to the receiver within " + timeout.toMillis() + "ms"
                            : "no answer within " + timeout.toMillis() + "ms"));
        }
        if (underWay != null && (expired || !over)) {
            underWay.reset();
        }
    }

    private void end() {
        over = true;
        vertx.cancelTimer(timer);
    }

    private void fail(Throwable cause) {
        end();
        answered.completeExceptionally(cause);
    }

    /** Why an attempt of {@code timeout} failed, in words fit for {@code lastError}. */
    static String describe(Throwable error, Duration timeout) {
        Throwable cause = DeliveryFailure.unwrapped(error);
        if (cause instanceof DeliveryFailure failure) {
            return failure.getMessage();
        }
        if (cause instanceof ConnectionPoolTooBusyException) {
            return "too many notifications already waiting for a connection to the receiver";
        }
        if (cause instanceof TimeoutException
                || cause.getClass().getSimpleName().contains("Timeout")) {
            return "no answer within " + timeout.toMillis() + "ms";
        }
        if (cause instanceof ConnectException) {
            return "could not connect to the receiver";
        }
        if (cause instanceof HttpClosedException) {
            return "the receiver closed the connection";
        }
        return "could not reach the receiver";
    }
}
