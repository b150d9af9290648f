package com.meetingreminders.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Every {@code reminders.*} setting; each also works as an environment variable ({@code REMINDERS_WEBHOOK_URL}). */
@ConfigMapping(prefix = "reminders")
public interface RemindersConfig {

    Webhook webhook();

    DeliveryConfig delivery();

    Email email();

    RedisConfig redis();

    Sweeper sweeper();

    Claim claim();

    Trigger trigger();

    Reconcile reconcile();

    Idempotency idempotency();

    LimitsConfig limits();

    Recurrence recurrence();

    Admin admin();

    Metrics metrics();

    Background background();

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

        /**
         * The least time from one sweep that took reminders to the next: under a steady stream of reminders falling
         * due, each sweep then takes those of this span together, in one round, rather than one round per reminder.
         */
        @WithDefault("10ms")
        Duration spacing();
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

    interface Metrics {
        /** How often a replica counts the SCHEDULED reminders for the {@code reminders.pending} gauge. */
        @WithDefault("10s")
        Duration pendingInterval();
    }

    /** The periodic jobs of every replica. */
    interface Background {
        /**
         * How long after start a replica first runs its periodic checks: its subscriptions to Redis, the pause
         * switch, its heartbeat, the masters of a Redis Cluster.
         */
        @WithDefault("1s")
        Duration firstRunDelay();
    }
}
