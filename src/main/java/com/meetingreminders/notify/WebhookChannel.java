package com.meetingreminders.notify;

import com.meetingreminders.config.RemindersConfig;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The signed webhook: {@code POST} of the notification to the meeting's URL or the default one, with the Standard
 * Webhooks headers, signed afresh for each attempt. Any 2xx answer is
 * success; anything else, a redirect included, or no answer within {@code reminders.webhook.timeout}, is a failure.
 * Requests run on Vert.x's non-blocking client, so a slow receiver holds a connection, never a thread.
 */
@ApplicationScoped
public class WebhookChannel {

    private final HttpClient client;
    private final Clock clock;
    private final Duration timeout;

    WebhookChannel(Vertx vertx, Clock clock, RemindersConfig config) {
        this.clock = clock;
        this.timeout = config.webhook().timeout();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) timeout.toMillis())
                .setMaxPoolSize(config.webhook().maxConnectionsPerReceiver())
                .setKeepAlive(true));
    }

    /**
     * Sends one notification signed by {@code signature}; the future fails with a {@link DeliveryFailure} that says
     * why.
     */
    public CompletableFuture<Void> send(URI target, String deliveryId, String body, WebhookSignature signature) {
        // This attempt's time: a receiver refuses a message whose timestamp is old, so a retry is signed again.
        long timestamp = clock.instant().getEpochSecond();
        RequestOptions request = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(target.toString())
                .setFollowRedirects(false)
                .setIdleTimeout(timeout.toMillis())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("Idempotency-Key", deliveryId)
                .putHeader("webhook-id", deliveryId)
                .putHeader("webhook-timestamp", Long.toString(timestamp));
        signature.of(deliveryId, timestamp, body).ifPresent(value -> request.putHeader("webhook-signature", value));
        return client.request(request)
                // body() is asked for inside send()'s callback, in the same dispatch as the answer's headers: a
                // separate compose may run after an empty answer has already ended, and then it never completes
                // (the attempt times out although the receiver answered, and the reminder goes out again).
                // Reading the answer to its end also frees the connection for the next request.
                .compose(outgoing -> outgoing.send(Buffer.buffer(body))
                        .compose(answer -> answer.body().map(ignored -> answer.statusCode())))
                .toCompletionStage()
                .toCompletableFuture()
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((status, error) -> {
                    if (error != null) {
                        throw new DeliveryFailure(describe(error));
                    }
                    if (status < 200 || status > 299) {
                        throw new DeliveryFailure("receiver answered " + status);
                    }
                    return null;
                });
    }

    private String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
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

    @PreDestroy
    void close() {
        client.close();
    }
}
