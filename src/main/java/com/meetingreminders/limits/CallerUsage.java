package com.meetingreminders.limits;

import com.meetingreminders.config.LimitsConfig;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.jdbc.SqlInstants;
import com.meetingreminders.limits.UsageChange.Bucket;
import com.meetingreminders.limits.UsageChange.Kind;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The limits kept in the database, for each caller: meetings held, reminders due within one minute, e-mails within
 * one hour ({@code reminders.limits.*}). Each change to a caller's meetings adds to the caller's counts in its own
 * transaction, which holds the counts it raised until it commits: a caller's changes take turns on them on every
 * replica, so two of them cannot both take the last place. A change that would take a count over its limit fails,
 * and its transaction rolls back with everything it stored.
 */
@ApplicationScoped
public class CallerUsage {

    private static final String CHARGE = "insert into caller_usage as u (owner, kind, bucket, used)"
            + " select ?, c.kind, c.bucket, c.amount"
            + " from unnest(?::varchar[], ?::timestamptz[], ?::bigint[]) with ordinality as c(kind, bucket, amount, n)"
            + " order by c.n"
            + " on conflict (owner, kind, bucket) do update set used = u.used + excluded.used"
            + " returning kind, bucket, used";

    private static final String FORGET = "delete from caller_usage where kind <> 'meetings' and bucket < ?";

    /** Only the caller's own deletes free a meeting's place: a retry is worth little sooner than this. */
    private static final Duration HELD_RETRY_AFTER = Duration.ofMinutes(1);

    private final DataSource dataSource;
    private final Clock clock;
    private final LimitsConfig limits;
    private final boolean emailOn;

    CallerUsage(DataSource dataSource, Clock clock, RemindersConfig config) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.limits = config.limits();
        this.emailOn = config.email().enabled();
    }

    /** Adds the change to the owner's counts in the current transaction; fails if one it raises goes over its limit. */
    public void charge(String owner, UsageChange change) {
        try (Connection connection = dataSource.getConnection()) {
            charge(connection, owner, change);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not count the caller's usage", e);
        }
    }

    /** Adds the change to the owner's counts in the transaction open on {@code connection}; as above. */
    public void charge(Connection connection, String owner, UsageChange change) {
        List<Map.Entry<Bucket, Long>> amounts = change.amounts().entrySet().stream()
                .filter(amount -> amount.getValue() != 0)
                .toList();
        if (amounts.isEmpty()) {
            return;
        }
        List<Count> counts = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(CHARGE)) {
            statement.setString(1, owner);
            statement.setArray(
                    2,
                    connection.createArrayOf(
                            "varchar",
                            amounts.stream()
                                    .map(amount -> name(amount.getKey().kind()))
                                    .toArray()));
            Stream<Instant> bucketStarts =
                    amounts.stream().map(amount -> amount.getKey().start());
            statement.setArray(3, SqlInstants.array(connection, bucketStarts));
            statement.setArray(
                    4,
                    connection.createArrayOf(
                            "bigint", amounts.stream().map(Map.Entry::getValue).toArray()));
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    Kind kind = Kind.valueOf(result.getString(1).toUpperCase(Locale.ROOT));
                    counts.add(new Count(new Bucket(kind, SqlInstants.instant(result, 2)), result.getLong(3)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not count the caller's usage", e);
        }
        for (Count count : counts) {
            // A count this change lowered may stay over a limit that was lowered since: it holds nothing back.
            if (change.amounts().getOrDefault(count.bucket(), 0L) > 0) {
                check(count.bucket(), count.used(), change.now());
            }
        }
    }

    private record Count(Bucket bucket, long used) {}

    private void check(Bucket bucket, long used, Instant now) {
        switch (bucket.kind()) {
            case MEETINGS -> {
                if (used > limits.meetingsHeld()) {
                    throw new LimitExceededException(
                            "Over the limit meetings-held: " + limits.meetingsHeld() + " meetings for each caller, and"
                                    + " this request would make " + used + ". Nothing was stored; delete meetings you"
                                    + " no longer need.",
                            HELD_RETRY_AFTER);
                }
            }
            case REMINDERS -> {
                if (used > limits.remindersPerMinute()) {
                    throw overPeriod(
                            "reminders-per-minute",
                            limits.remindersPerMinute() + " reminders due within one minute",
                            used,
                            bucket.start(),
                            Duration.ofMinutes(1),
                            now);
                }
            }
            case EMAILS -> {
                if (emailOn && used > limits.emailsPerHour()) {
                    throw overPeriod(
                            "emails-per-hour",
                            limits.emailsPerHour() + " e-mails within one hour",
                            used,
                            bucket.start(),
                            Duration.ofHours(1),
                            now);
                }
            }
        }
    }

    /** Retry-After: when the full period is over, the earliest that the same request could succeed. */
    private static LimitExceededException overPeriod(
            String limit, String allowed, long used, Instant start, Duration period, Instant now) {
        return new LimitExceededException(
                "Over the limit " + limit + ": " + allowed + " for each caller, and this request would make " + used
                        + " in the " + (period.toHours() == 1 ? "hour" : "minute") + " from " + start + " (UTC)."
                        + " Nothing was stored.",
                Duration.between(now, start.plus(period)));
    }

    private static String name(Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    /** Counts of minutes and hours that are over matter no more. */
    @Scheduled(
            every = "${reminders.limits.cleanup-interval}",
            delayed = "${reminders.limits.cleanup-delay}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetPast() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(FORGET)) {
            statement.setTimestamp(1, SqlInstants.timestamp(clock.instant().minus(Duration.ofHours(1))));
            statement.executeUpdate();
        } catch (SQLException e) {
            Log.debugf("Past usage counts kept for now: %s", e.getMessage());
        }
    }
}
