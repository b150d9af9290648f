package com.meetingreminders.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Every {@code reminders.*} setting; each also works as an environment variable ({@code REMINDERS_WEBHOOK_URL}). */
@ConfigMapping(prefix = "reminders")
public interface RemindersConfig {

    Webhook webhook();

    Delivery delivery();

    Email email();

    Redis redis();

    Sweeper sweeper();

    Claim claim();

    Trigger trigger();

    Reconcile reconcile();

    Idempotency idempotency();

    Limits limits();

    Recurrence recurrence();

    Admin admin();

    interface Webhook {
        /** Default notification target; without one, reminders of meetings without a webhookUrl go to the stream and the log only. */
        Optional<URI> url();

        /**
         * Signs what goes to the default target (url), never a meeting's own webhookUrl: whsec_ and the base64 of 24
         * to 64 random bytes; without one, notifications to the default target carry no webhook-signature.
         */
        Optional<String> secret();

        /** How long a caller's old signing secret keeps signing beside the new one after POST /signing-secret/rotate. */
        @WithDefault("24h")
        Duration rotationOverlap();

        /** How long one delivery attempt may take before it counts as failed. */
        @WithDefault("5s")
        Duration timeout();

        /**
         * Hosts a meeting's own webhookUrl may point at: host names or IP literals, or {@code *.example.com}. None by
         * default, so per-meeting URLs are refused until the operator allows hosts; the default URL is trusted.
         */
        Optional<List<String>> allowedHosts();

        /** Most connections the service keeps open to one receiver. */
        @WithDefault("64")
        int maxConnectionsPerReceiver();
    }

    interface Email {
        /**
         * Send each attendee of a meeting an e-mail for each of its reminders. The SMTP server and the sender are the
         * {@code quarkus.mailer.*} settings.
         */
        @WithDefault("false")
        boolean enabled();

        /** How long one message may take before the attempt counts as failed. */
        @WithDefault("10s")
        Duration timeout();
    }

    interface Delivery {
        /** Attempts after which a reminder that could not be delivered is FAILED. */
        @WithDefault("8")
        int maxAttempts();

        /** Delay before the first retry; it doubles with every further attempt. */
        @WithDefault("1s")
        Duration backoff();

        /** Longest delay between two attempts. */
        @WithDefault("5m")
        Duration maxBackoff();

        /**
         * How late a reminder may still go out once its meeting has started; a later one is SKIPPED. Before the
         * meeting starts, a late reminder is always sent.
         */
        @WithDefault("1m")
        Duration lateCutoff();

        /**
         * Threads that do the database work of delivery rounds (lock, record, commit); a round holds none while its
         * notifications are out.
         */
        @WithDefault("4")
        int workers();

        /**
         * Delivery rounds under way at once, sends out included; each holds one database connection (and its row
         * locks) until its outcomes are recorded, so keep it well below the datasource's max-size.
         */
        @WithDefault("16")
        int roundsInFlight();

        /** Most reminders one delivery round takes. */
        @WithDefault("100")
        int batchSize();
    }

    interface Redis {
        /** Redis address, {@code redis://host:port} or {@code rediss://host:port} for TLS. */
        @WithDefault("redis://127.0.0.1:6379")
        String address();

        /** Redis database of the timers; the expiration events are read from the same one. */
        @WithDefault("0")
        int database();

        /** Redis ACL user name. */
        Optional<String> username();

        /** Redis password. */
        Optional<String> password();

        /** How long one Redis command may take before it counts as failed. */
        @WithDefault("2s")
        Duration timeout();

        /** Every key the service writes starts with it. */
        @WithDefault("reminders:")
        String keyPrefix();

        /** At start, add E and x to notify-keyspace-events (keeping flags already set). */
        @WithDefault("true")
        boolean configureNotifications();

        /**
         * Seed nodes of a Redis Cluster, comma-separated {@code redis://host:port}; when set, the service runs in
         * cluster mode and {@code address} and {@code database} are not used.
         */
        Optional<List<String>> clusterNodes();

        /** Whether the service runs against a Redis Cluster: it does exactly when seed nodes are given. */
        default boolean cluster() {
            return clusterNodes().isPresent();
        }

        /**
         * Shards of the schedule, each with its keys in one hash slot. Default: 1 on a single node (the keys are named
         * as they always were), 12 in cluster mode (several per master of a usual cluster, so a master's share of the
         * sweep moves with its slots on a resharding or failover).
         */
        OptionalInt shards();

        /**
         * How often a replica in cluster mode checks that it hears expiration events from every current master,
         * turning them on and subscribing again where it does not.
         */
        @WithDefault("10s")
        Duration mastersCheckInterval();
    }

    interface Sweeper {
        /** The longest the sweeper waits between sweeps of the schedule; it wakes earlier when the next reminder is due. */
        @WithDefault("100ms")
        Duration interval();

        /** How overdue an entry must be before the sweeper takes it. */
        @WithDefault("0ms")
        Duration grace();

        /** Most due entries one sweep takes. */
        @WithDefault("500")
        int batchSize();
    }

    interface Claim {
        /** After this, a claim whose holder went silent is taken over. */
        @WithDefault("30s")
        Duration lease();
    }

    interface Trigger {
        /** How long before its send time a reminder gets its expiring trigger key; keeping it short keeps expiration events prompt. */
        @WithDefault("1s")
        Duration horizon();
    }

    interface Recurrence {
        /**
         * How far ahead the reminders of a series are planned as rows: every reminder due within this much of now has
         * its row; later ones are planned by a background step as time moves on.
         */
        @WithDefault("48h")
        Duration horizon();

        /** How often the background step extends the horizon of the series that need it. */
        @WithDefault("1m")
        Duration extendInterval();
    }

    interface Reconcile {
        /** How often the database is checked for overdue reminders that Redis may have lost. */
        @WithDefault("10s")
        Duration interval();
    }

    interface Idempotency {
        /**
         * Most Idempotency-Keys one caller may use within 24 hours; a create with one more is 429 until the oldest
         * expires. With the largest answer (a batch), this bounds what one caller's keys hold in the database.
         */
        @WithDefault("10000")
        int maxKeysPerCaller();

        /** How often the answers kept for keys older than 24 hours are deleted. */
        @WithDefault("1h")
        Duration cleanupInterval();
    }

    /** Fair use: what one caller (a token's identity) may take, counted across every replica. */
    interface Limits {
        /** Requests a second one caller may make; a second's worth may come at once. */
        @WithDefault("50")
        @Positive
        int requestsPerSecond();

        /** Meetings one caller may hold (stored, past ones included until deleted). */
        @WithDefault("10000")
        @Positive
        int meetingsHeld();

        /** Reminders of one caller's meetings that may fall due within one calendar minute (UTC). */
        @WithDefault("1000")
        @Positive
        int remindersPerMinute();

        /** E-mails the reminders of one caller's meetings may send within one calendar hour (UTC), with e-mail on. */
        @WithDefault("1000")
        @Positive
        int emailsPerHour();

        /** Reminder streams one caller may have open at once. */
        @WithDefault("5")
        @Positive
        int openStreams();

        /** How long an open stream keeps its place without its replica renewing it: a dead replica's streams free by then. */
        @WithDefault("30s")
        Duration streamLease();
    }

    /** Operators and the deployment-wide delivery switch. */
    interface Admin {
        /** The value of a token's groups claim that makes its caller an operator. */
        @WithDefault("reminders-admin")
        String group();

        /** How often a replica reads the pause switch; a replica that has not read it yet is still held by its rounds. */
        @WithDefault("1s")
        Duration pauseRefresh();

        /** How often a replica records that it is alive and whether it is ready, for GET /admin/delivery. */
        @WithDefault("5s")
        Duration heartbeat();
    }
}
