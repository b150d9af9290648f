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
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The signed webhook: {@code POST} of the notification to the meeting's URL or the default one, with the Standard
 * Webhooks headers, signed afresh for each attempt. Any 2xx answer is success, as soon as its status is in; anything
 * else, a redirect included, or no answer within {@code reminders.webhook.timeout}, is a failure. Requests run on
 * Vert.x's non-blocking client, so a slow receiver holds a connection, never a thread; what one receiver does (hang,
 * drip, answer hundreds of megabytes, hang up) costs one attempt of its own reminder and no more (see
 * {@link WebhookExchange}). A meeting's own URL goes where {@link ChosenTargets} checked it may.
 */
@ApplicationScoped
@Priority(WebhookChannel.PRIORITY)
public class WebhookChannel implements Channel {

    /** Before e-mail: sends start, and {@code sent_to} and errors list them, in the order of the channels. */
    static final int PRIORITY = 20;

    /** What {@code sent_to} records for the webhook. */
    static final String RECIPIENT = "webhook";

    private final Vertx vertx;
    private final HttpClient client;
    private final Clock clock;
    private final Duration timeout;
    private final Tracer tracer;
    private final ChosenTargets chosenTargets;
    private final OwnerSignatures ownerSignatures;
    private final Optional<URI> defaultTarget;
    private final WebhookSignature defaultTargetSignature;

    WebhookChannel(
            Vertx vertx,
            Clock clock,
            Tracer tracer,
            ChosenTargets chosenTargets,
            OwnerSignatures ownerSignatures,
            DeploymentSecret deploymentSecret,
            BackgroundWork background,
            RemindersConfig config) {
        this.vertx = vertx;
        this.clock = clock;
        this.tracer = tracer;
        this.chosenTargets = chosenTargets;
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
        Map<String, Optional<ChosenTargets.Chosen>> chosen = new ConcurrentHashMap<>();
        return outgoing -> outgoing.hasReached(RECIPIENT) || (outgoing.webhookUrl() == null && defaultTarget.isEmpty())
                ? List.of()
                : List.of(new Send(
                        RECIPIENT, () -> send(outgoing, signatures, chosen), "the webhook URL cannot be used"));
    }

    private CompletableFuture<Void> send(
            Outgoing outgoing,
            Map<String, WebhookSignature> signatures,
            Map<String, Optional<ChosenTargets.Chosen>> chosen) {
        String deliveryId = outgoing.notification().deliveryId();
        if (outgoing.webhookUrl() == null) {
            return send(
                    defaultTarget.orElseThrow(), deliveryId, outgoing.json(), defaultTargetSignature, outgoing.trace());
        }
        // Checked again at send time: the operator may have taken the host off the list since the meeting was made.
        // A URL that does not parse throws here, is not remembered, and fails this send alone.
        return chosen.computeIfAbsent(outgoing.webhookUrl(), chosenTargets::of)
                .map(target ->
                        send(target, deliveryId, outgoing.json(), signatures.get(outgoing.owner()), outgoing.trace()))
                .orElseGet(() -> CompletableFuture.failedFuture(new RefusedTarget(ChosenTargets.NOT_ON_LIST)));
    }

    /** Sends to a target a caller chose, at the address it was checked at ({@link ChosenTargets#reach}). */
    CompletableFuture<Void> send(
            ChosenTargets.Chosen chosen, String deliveryId, String body, WebhookSignature signature, Context trace) {
        return chosenTargets
                .reach(chosen)
                .thenCompose(
                        reach -> send(chosen.uri(), reach.address(), reach.left(), deliveryId, body, signature, trace));
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
        int port = target.getPort() > 0 ? target.getPort() : defaultPort(target);
        Span span = tracer.spanBuilder("POST")
                .setParent(trace)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute("http.request.method", "POST")
                // Host and port only: a webhook URL's path or query may hold a receiver's secret.
                .setAttribute("server.address", String.valueOf(target.getHost()))
                .setAttribute("server.port", (long) port)
                .startSpan();
        CompletableFuture<Integer> answered;
        try {
            RequestOptions request = request(target, attemptTime, deliveryId, body, signature);
            if (address != null) {
                // Named by its literal: the client pools connections by server host and port, and a pool made for
                // the name would connect wherever the name then resolves.
                request.setServer(SocketAddress.inetSocketAddress(port, WebhookTarget.literal(address)));
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
                    ? WebhookExchange.describe(error, timeout)
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
}
