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

    Delivery delivery();

    Email email();

    Redis redis();

    Sweeper sweeper();

    Claim claim();

    Trigger trigger();

    Reconcile reconcile();

    interface Webhook {
        /** Default notification target; without one, reminders of meetings without a webhookUrl go to the stream and the log only. */
        Optional<URI> url();

        /** HMAC-SHA256 key for the X-Reminder-Signature header; without one, notifications are not signed. */
        Optional<String> secret();

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

    interface Reconcile {
        /** How often the database is checked for overdue reminders that Redis may have lost. */
        @WithDefault("10s")
        Duration interval();
    }
}
