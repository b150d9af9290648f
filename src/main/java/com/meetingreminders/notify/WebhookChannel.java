package com.meetingreminders.notify;

import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.signing.DeploymentSecret;
import com.meetingreminders.signing.OwnerSignatures;
import com.meetingreminders.signing.WebhookSignature;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The signed webhook: {@code POST} of the notification to the meeting's URL or the default one, with the Standard
 * Webhooks headers, signed afresh for each attempt. Any 2xx answer is
 * success, as soon as its status is in; anything else, a redirect included, or no answer within
 * {@code reminders.webhook.timeout}, is a failure. Requests run on Vert.x's non-blocking client, so a slow receiver holds a connection, never a thread; what
 * one receiver does (hang, drip, answer hundreds of megabytes, hang up) costs one attempt of its own reminder and no
 * more (see {@link WebhookExchange}).
 */
@ApplicationScoped
@Priority(WebhookChannel.PRIORITY)
public class WebhookChannel implements Channel {

    /** Before e-mail: sends start, and {@code sent_to} and errors list them, in the order of the channels. */
    static final int PRIORITY = 20;

    /** What {@code sent_to} records for the webhook. */
    static final String RECIPIENT = "webhook";

    static final String NOT_ON_LIST = "the webhook's host is not on reminders.webhook.allowed-hosts";

    /** Says no more than that: the address a caller's name resolves to inside our network is not theirs to learn. */
    static final String NOT_AT_ADDRESS =
            "the webhook's host resolves to an internal address that reminders.webhook.allowed-hosts does not name";

    private final Vertx vertx;
    private final HttpClient client;
    private final Clock clock;
    private final Duration timeout;
    private final Tracer tracer;
    private final WebhookAllowList allowList;
    private final OwnerSignatures ownerSignatures;
    private final Optional<URI> defaultTarget;
    private final WebhookSignature defaultTargetSignature;

    WebhookChannel(
            Vertx vertx,
            Clock clock,
            Tracer tracer,
            WebhookAllowList allowList,
            OwnerSignatures ownerSignatures,
            DeploymentSecret deploymentSecret,
            BackgroundWork background,
            RemindersConfig config) {
        this.vertx = vertx;
        this.clock = clock;
        this.tracer = tracer;
        this.allowList = allowList;
        this.ownerSignatures = ownerSignatures;
        this.defaultTarget = config.webhook().url();
        this.defaultTargetSignature = deploymentSecret.signature();
        this.timeout = config.webhook().timeout();
        this.client = vertx.createHttpClient(
                new HttpClientOptions()
                        .setConnectTimeout((int) timeout.toMillis())
                        .setKeepAlive(true)
                        // The span and traceparent are ours (send): Vert.x's own tracing would look for a parent in
                        // a Vert.x context, which a delivery worker does not have.
                        .setTracingPolicy(TracingPolicy.IGNORE),
                new PoolOptions()
                        .setHttp1MaxSize(config.webhook().maxConnectionsPerReceiver())
                        // A bound on memory, never reached in practice: no replica has more sends out at once.
                        .setMaxWaitQueueSize(config.delivery().roundsInFlight()
                                * config.delivery().batchSize()));
        // Open until the last round and failure notice of a stopping replica are done with it.
        background.closeLast(client::close);
    }

    @Override
    public String name() {
        return "webhook";
    }

    @Override
    public Duration longestSend() {
        return timeout;
    }

    /**
     * The webhook, to the meeting's own URL or else the default target, unless an earlier attempt reached it or there
     * is neither. The deployment's secret signs only what goes to the default target; a meeting's own URL gets its
     * owner's signature, read here for every owner of the round in one query. Each distinct URL of the round is parsed
     * and checked against the allow list once: a round's meetings mostly share a few.
     */
    @Override
    public Function<Outgoing, List<Send>> sendsOf(List<Outgoing> round) {
        Map<String, WebhookSignature> signatures = ownerSignatures.of(round.stream()
                .filter(outgoing -> outgoing.webhookUrl() != null && !outgoing.hasReached(RECIPIENT))
                .map(Outgoing::owner)
                .toList());
        Map<String, Optional<ChosenTarget>> chosenTargets = new ConcurrentHashMap<>();
        return outgoing -> outgoing.hasReached(RECIPIENT) || (outgoing.webhookUrl() == null && defaultTarget.isEmpty())
                ? List.of()
                : List.of(new Send(
                        RECIPIENT, () -> send(outgoing, signatures, chosenTargets), "the webhook URL cannot be used"));
    }

    private CompletableFuture<Void> send(
            Outgoing outgoing, Map<String, WebhookSignature> signatures, Map<String, Optional<ChosenTarget>> chosen) {
        String deliveryId = outgoing.notification().deliveryId();
        if (outgoing.webhookUrl() == null) {
            return send(
                    defaultTarget.orElseThrow(), deliveryId, outgoing.json(), defaultTargetSignature, outgoing.trace());
        }
        // Checked again at send time: the operator may have taken the host off the list since the meeting was made.
        // A URL that does not parse throws here, is not remembered, and fails this send alone.
        return chosen.computeIfAbsent(outgoing.webhookUrl(), this::chosenTarget)
                .map(target ->
                        send(target, deliveryId, outgoing.json(), signatures.get(outgoing.owner()), outgoing.trace()))
                .orElseGet(() -> CompletableFuture.failedFuture(new RefusedTarget(NOT_ON_LIST)));
    }

    /** A URL a caller chose, whose host the allow-list takes by name. */
    record ChosenTarget(URI uri, WebhookTarget target) {}

    /**
     * The caller's URL as a target, or empty when its host is not on the allow-list; a URL that does not parse at all
     * throws {@link IllegalArgumentException}.
     */
    Optional<ChosenTarget> chosenTarget(String webhookUrl) {
        URI uri = URI.create(webhookUrl);
        try {
            WebhookTarget target = WebhookTarget.of(uri);
            return allowList.allows(target) ? Optional.of(new ChosenTarget(uri, target)) : Optional.empty();
        } catch (WebhookTarget.Invalid notATarget) {
            return Optional.empty();
        }
    }

    /**
     * Sends to a target a caller chose. A host name is looked up first, within the attempt's time, and the request
     * goes to the address found, and only when the allow-list allows that address ({@link WebhookAllowList#allowsAt}):
     * the name is not looked up again by the client, so an answer that changes in between cannot send it elsewhere.
     */
    CompletableFuture<Void> send(
            ChosenTarget chosen, String deliveryId, String body, WebhookSignature signature, Context trace) {
        if (chosen.target().isAddress()) {
            return send(chosen.uri(), null, timeout, deliveryId, body, signature, trace);
        }
        long started = System.nanoTime();
        return resolve(chosen.target().host()).thenCompose(address -> {
            if (!allowList.allowsAt(chosen.target(), address)) {
                return CompletableFuture.failedFuture(new RefusedTarget(NOT_AT_ADDRESS));
            }
            Duration left = timeout.minusNanos(System.nanoTime() - started);
            if (left.toMillis() < 1) {
                return CompletableFuture.failedFuture(lookupTooSlow());
            }
            return send(chosen.uri(), address, left, deliveryId, body, signature, trace);
        });
    }

    /** The address the client would connect to for this name (Vert.x's resolver: its hosts file, cache and DNS). */
    private CompletableFuture<InetAddress> resolve(String host) {
        CompletableFuture<InetAddress> resolved = new CompletableFuture<>();
        ((VertxInternal) vertx).resolveAddress(host, result -> {
            if (result.succeeded()) {
                resolved.complete(result.result());
            } else {
                resolved.completeExceptionally(new DeliveryFailure("could not look up the webhook's host"));
            }
        });
        return resolved.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionallyCompose(error -> {
            Throwable cause = error instanceof CompletionException ? error.getCause() : error;
            return CompletableFuture.failedFuture(cause instanceof TimeoutException ? lookupTooSlow() : cause);
        });
    }

    private DeliveryFailure lookupTooSlow() {
        return new DeliveryFailure("could not look up the webhook's host within " + timeout.toMillis() + "ms");
    }

    /**
     * Sends one notification signed by {@code signature}, as a client span beneath {@code trace} whose W3C
     * {@code traceparent} it carries, so that the receiver's trace joins; the future fails with a
     * {@link DeliveryFailure} that says why. For the operator's own targets, which are not checked.
     */
    public CompletableFuture<Void> send(
            URI target, String deliveryId, String body, WebhookSignature signature, Context trace) {
        return send(target, null, timeout, deliveryId, body, signature, trace);
    }

    /**
     * As above, to {@code address} when it is not null, rather than to the address the URL's host resolves to, within
     * what is left of the attempt's time (at least a millisecond).
     */
    private CompletableFuture<Void> send(
            URI target,
            InetAddress address,
            Duration attemptTime,
            String deliveryId,
            String body,
            WebhookSignature signature,
            Context trace) {
        Span span = tracer.spanBuilder("POST")
                .setParent(trace)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute("http.request.method", "POST")
                // Host and port only: a webhook URL's path or query may hold a receiver's secret.
                .setAttribute("server.address", String.valueOf(target.getHost()))
                .setAttribute("server.port", (long) (target.getPort() > 0 ? target.getPort() : defaultPort(target)))
                .startSpan();
        CompletableFuture<Integer> answered;
        try {
            RequestOptions request = request(target, attemptTime, deliveryId, body, signature);
            if (address != null) {
                // Named by its literal: the client pools connections by server host and port, and a pool made for
                // the name would connect wherever the name then resolves.
                request.setServer(SocketAddress.inetSocketAddress(
                        target.getPort() > 0 ? target.getPort() : defaultPort(target), WebhookTarget.literal(address)));
            }
            W3CTraceContextPropagator.getInstance()
                    .inject(trace.with(span), request, (options, name, value) -> options.putHeader(name, value));
            answered = new WebhookExchange(vertx, client, timeout, attemptTime).start(request, body);
        } catch (RuntimeException e) {
            // A target the client refuses before any attempt (a port out of range, say): this send fails, no other.
            answered = CompletableFuture.failedFuture(new DeliveryFailure("the webhook URL cannot be used"));
        }
        return answered.handle((status, error) -> {
            String failure = error != null
                    ? describe(error)
                    : status < 200 || status > 299 ? "receiver answered " + status : null;
            if (status != null) {
                span.setAttribute("http.response.status_code", (long) status);
            }
            if (failure != null) {
                span.setStatus(StatusCode.ERROR, failure);
            }
            span.end();
            if (failure != null) {
                throw new DeliveryFailure(failure);
            }
            return null;
        });
    }

    private RequestOptions request(
            URI target, Duration attemptTime, String deliveryId, String body, WebhookSignature signature) {
        // This attempt's time: a receiver refuses a message whose timestamp is old, so a retry is signed again.
        long timestamp = clock.instant().getEpochSecond();
        RequestOptions request = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(target.toString())
                .setFollowRedirects(false)
                // Waiting for a pooled connection ends with the attempt: a request that got none in time is dropped
                // from the queue, and is never sent late.
                .setConnectTimeout(attemptTime.toMillis())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("Idempotency-Key", deliveryId)
                .putHeader("webhook-id", deliveryId)
                .putHeader("webhook-timestamp", Long.toString(timestamp));
        signature.of(deliveryId, timestamp, body).ifPresent(value -> request.putHeader("webhook-signature", value));
        return request;
    }

    private static int defaultPort(URI target) {
        return "https".equalsIgnoreCase(target.getScheme()) ? 443 : 80;
    }

    private String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
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
