package com.meetingreminders.notify;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.meetingreminders.background.BackgroundWork;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.mailer.Mail;
import io.quarkus.mailer.reactive.ReactiveMailer;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Hands messages to Quarkus Mailer, which cannot take one back: its SMTP client has no deadline of its own, so a
 * message it holds goes out whenever the server answers, however late, and one waiting for a connection of its pool
 * waits as long as the server hangs. So a message is handed over only within its attempt's deadline and only when a
 * connection of the pool is free for it, never into the pool's queue. An attendee's message is not handed over again
 * while an earlier copy is still with the mailer: the later attempt waits for that copy instead. A copy that the server
 * took after its attempt had given up counts, on this replica, as having reached the attendee.
 */
@ApplicationScoped
class MailHandOver {

    /**
     * How long a copy that went out after its attempt gave up is remembered: longer than a reminder's retries take (8
     * attempts, their backoff at most 5 minutes), and for an hour's retries by hand.
     */
    static final Duration REMEMBERED_LATE = Duration.ofHours(1);

    /**
     * Far more than an hour of late copies (at 10 connections and 3 s a message, 12,000): Caffeine's eviction by size
     * keeps the entries it has read most, and these are read at most once, so it must never be reached.
     */
    static final long MOST_REMEMBERED_LATE = 200_000;

    private final ReactiveMailer mailer;
    /**
     * Where a message waits for a free connection, in the order the rounds asked, outside the delivery round's thread
     * and transaction.
     */
    private final ExecutorService sender;

    /**
     * The one event loop every message is handed to the mailer on. Vert.x's SMTP client (4.5) drops a request that
     * reaches its pool just as the pool's last connection closes: the request finds the pool disposed and is neither
     * served nor failed, so its copy would hold a connection for good. The pool's connections live on the loop of the
     * request that opened them and close on it, so requests made on that same loop do not meet a closing pool. (With
     * keep-alive on, the pool's cleaner runs on another loop and may, in a window of microseconds, open a connection
     * there for one of these requests.)
     */
    private final Context mailLoop;

    /**
     * One for each connection of the mailer's pool ({@code quarkus.mailer.max-pool-size}), taken only on the sender
     * thread, which keeps the order. Given back when the client is done with a message: against a server that never
     * answers, that is never, and e-mail from this replica stops until the server answers or the replica restarts
     * ({@code reminders_email_with_server} stays at the pool's size).
     */
    private final Semaphore connections;

    private final int poolSize;

    /** The copies the mailer holds, by delivery and attendee. */
    private final ConcurrentMap<String, CompletableFuture<Void>> withMailer = new ConcurrentHashMap<>();

    /** Copies the server took after their attempt had given up, by delivery and attendee. */
    private final Cache<String, Boolean> tookLate = Caffeine.newBuilder()
            .maximumSize(MOST_REMEMBERED_LATE)
            .expireAfterWrite(REMEMBERED_LATE)
            .build();

    /** A message that never got a connection of the mailer's pool: it was never handed over. */
    static final class NoFreeConnection extends TimeoutException {
        NoFreeConnection() {
            super("no connection to the mail server was free");
        }
    }

    MailHandOver(
            ReactiveMailer mailer,
            BackgroundWork background,
            Vertx vertx,
            @ConfigProperty(name = "quarkus.mailer.max-pool-size", defaultValue = "10") int poolSize,
            MeterRegistry registry) {
        this.mailer = mailer;
        this.sender = background.worker("reminder-email");
        // Made on the sender's thread, which is none of Vert.x's: a context of its own, not a request's.
        this.mailLoop =
                CompletableFuture.supplyAsync(vertx::getOrCreateContext, sender).join();
        this.connections = new Semaphore(poolSize);
        this.poolSize = poolSize;
        Gauge.builder("reminders.email.with.server", this, MailHandOver::withServer)
                .description("e-mails handed to the mail server's client that it has not finished with")
                .register(registry);
    }

    private int withServer() {
        return poolSize - connections.availablePermits();
    }

    /**
     * Sends {@code mail} to the attendee {@code key} names within {@code deliveryId}, or joins the copy the mailer
     * already holds for them. The future fails with a {@link TimeoutException} at {@code timeout} from now, whatever
     * the mailer is still doing then.
     */
    CompletableFuture<Void> send(String key, Mail mail, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        AtomicBoolean reachedMailer = new AtomicBoolean();
        return CompletableFuture.supplyAsync(() -> handOver(key, mail, deadline, reachedMailer), sender)
                .thenCompose(copy -> copy)
                .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
                .exceptionallyCompose(error -> CompletableFuture.failedFuture(
                        // The deadline may pass on the timer's thread before the wait for a connection gives up.
                        error instanceof TimeoutException && !reachedMailer.get() ? new NoFreeConnection() : error));
    }

    private CompletableFuture<Void> handOver(String key, Mail mail, long deadline, AtomicBoolean reachedMailer) {
        // In this order: a copy that completes is marked as taken late, if it was, before it leaves withMailer.
        CompletableFuture<Void> earlier = withMailer.get(key);
        if (earlier != null) {
            reachedMailer.set(true);
            return earlier;
        }
        if (tookLate.getIfPresent(key) != null) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            // tryAcquire takes a free permit even when the time left is not positive: a message whose attempt has
            // given up while it waited on this thread must not go out.
            long left = deadline - System.nanoTime();
            if (left <= 0 || !connections.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                return CompletableFuture.failedFuture(new NoFreeConnection());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        }
        reachedMailer.set(true);
        CompletableFuture<Void> copy = new CompletableFuture<>();
        withMailer.put(key, copy);
        copy.whenComplete((sent, error) -> {
            if (error == null && System.nanoTime() - deadline >= 0) {
                tookLate.put(key, Boolean.TRUE);
            }
            withMailer.remove(key, copy);
            connections.release();
        });
        try {
            mailLoop.runOnContext(ignored -> {
                try {
                    mailer.send(mail).subscribe().with(copy::complete, copy::completeExceptionally);
                } catch (RuntimeException e) {
                    copy.completeExceptionally(e);
                }
            });
        } catch (RuntimeException stopping) {
            // Vert.x refuses work once it is closing.
            copy.completeExceptionally(stopping);
        }
        return copy;
    }
}
