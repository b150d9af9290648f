package com.meetingreminders.delivery;

import com.meetingreminders.signing.WebhookSecret;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The receiver of the delivery warm-up: the replica's own, on 127.0.0.1 and a port the system picks, open only while
 * the warm-up runs. It answers 204 to a POST whose Standard Webhooks signature verifies with the warm-up's secret, 401
 * to any other, so that a warm-up counts only what went out as a real notification does. No caller can name it as a
 * webhook target: its port is chosen anew each start, and it is closed before the replica reports ready.
 */
final class WarmUpSink implements AutoCloseable {

    private static final Duration OPEN_OR_CLOSE = Duration.ofSeconds(5);

    private final HttpServer server;
    private final WebhookSecret secret;
    private final AtomicInteger verified = new AtomicInteger();

    private WarmUpSink(Vertx vertx, WebhookSecret secret) {
        this.secret = secret;
        this.server = vertx.createHttpServer(
                new HttpServerOptions().setHost("127.0.0.1").setPort(0));
        server.requestHandler(this::receive);
    }

    static WarmUpSink open(Vertx vertx, WebhookSecret secret) {
        WarmUpSink sink = new WarmUpSink(vertx, secret);
        await(sink.server.listen());
        return sink;
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.actualPort() + "/warm-up");
    }

    /** How many POSTs came with a signature that verifies. */
    int verified() {
        return verified.get();
    }

    private void receive(HttpServerRequest request) {
        request.body().onComplete(read -> {
            int status = read.succeeded() && verifies(request, read.result().toString()) ? 204 : 401;
            request.response().setStatusCode(status).end();
        });
    }

    private boolean verifies(HttpServerRequest request, String body) {
        Map<String, List<String>> headers = request.headers().names().stream()
                .collect(Collectors.toMap(
                        name -> name.toLowerCase(Locale.ROOT), request.headers()::getAll, (a, b) -> a));
        if (!secret.verifies(body, headers)) {
            return false;
        }
        verified.incrementAndGet();
        return true;
    }

    @Override
    public void close() {
        await(server.close());
    }

    private static void await(Future<?> future) {
        try {
            future.toCompletionStage().toCompletableFuture().get(OPEN_OR_CLOSE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while opening or closing the warm-up's receiver", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("The warm-up's receiver could not be opened or closed", e);
        }
    }
}
