package com.meetingreminders.notify;

import com.meetingreminders.config.RemindersConfig;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The webhook URLs a caller chose (a meeting's webhookUrl and failureWebhookUrl), checked where they are sent: the
 * host against the allow-list, then, for a host name, the address it resolves to ({@link WebhookAllowList#allowsAt}).
 * The request goes to that address, and the client never looks the name up again, so an answer that changes in
 * between (DNS rebinding) cannot send it elsewhere.
 */
@ApplicationScoped
class ChosenTargets {

    static final String NOT_ON_LIST = "the webhook's host is not on reminders.webhook.allowed-hosts";

    /** Says no more than that: the address a caller's name resolves to inside our network is not theirs to learn. */
    static final String NOT_AT_ADDRESS =
            "the webhook's host resolves to an internal address that reminders.webhook.allowed-hosts does not name";

    /** A URL a caller chose, whose host the allow-list takes by name. */
    record Chosen(URI uri, WebhookTarget target) {}

    /** Where a send goes: to {@code address}, or where the URL's IP literal says when it is null; within {@code left}. */
    record Reach(InetAddress address, Duration left) {}

    private final Vertx vertx;
    private final WebhookAllowList allowList;
    private final Duration timeout;

    ChosenTargets(Vertx vertx, WebhookAllowList allowList, RemindersConfig config) {
        this.vertx = vertx;
        this.allowList = allowList;
        this.timeout = config.webhook().timeout();
    }

    /**
     * The caller's URL as a target, or empty when its host is not on the allow-list; a URL that does not parse at all
     * throws {@link IllegalArgumentException}.
     */
    Optional<Chosen> of(String webhookUrl) {
        URI uri = URI.create(webhookUrl);
        try {
            WebhookTarget target = WebhookTarget.of(uri);
            return allowList.allows(target) ? Optional.of(new Chosen(uri, target)) : Optional.empty();
        } catch (WebhookTarget.Invalid notATarget) {
            return Optional.empty();
        }
    }

    /**
     * Where to send to the target, and what is left of the attempt's time once a host name has been looked up; fails
     * with {@link RefusedTarget} when the name resolves to an address the allow-list does not allow.
     */
    CompletableFuture<Reach> reach(Chosen chosen) {
        if (chosen.target().isAddress()) {
            return CompletableFuture.completedFuture(new Reach(null, timeout));
        }
        long started = System.nanoTime();
        return resolve(chosen.target().host()).thenCompose(address -> {
            if (!allowList.allowsAt(chosen.target(), address)) {
                return CompletableFuture.failedFuture(new RefusedTarget(NOT_AT_ADDRESS));
            }
            Duration left = timeout.minusNanos(System.nanoTime() - started);
            return left.toMillis() < 1
                    ? CompletableFuture.failedFuture(lookupTooSlow())
                    : CompletableFuture.completedFuture(new Reach(address, left));
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
            Throwable cause = DeliveryFailure.unwrapped(error);
            return CompletableFuture.failedFuture(cause instanceof TimeoutException ? lookupTooSlow() : cause);
        });
    }

    private DeliveryFailure lookupTooSlow() {
        return new DeliveryFailure("could not look up the webhook's host within " + timeout.toMillis() + "ms");
    }
}
