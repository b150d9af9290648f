package com.meetingreminders.meeting;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.LockModeType;
import jakarta.persistence.MapKeyColumn;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.OptimisticLock;
import org.hibernate.type.SqlTypes;

/** A meeting. Its reminders know it by id ({@code Reminder.meetingId}); the meeting knows none of them. */
@Entity
public class Meeting extends PanacheEntityBase {

    /** The one query a page of meetings and its total both ask. */
    private static final String OWNED_STARTING_BETWEEN = "owner = :owner and startsAt >= :from and startsAt < :to";

    @Id
    public UUID id;

    /** The caller that created the meeting; only it sees the meeting and its reminders. */
    public String owner;

    public String title;

    public Instant startsAt;

    /** IANA zone in which notifications show the start time. */
    public String timeZone;

    /** ISO-8601 durations, as {@link java.time.Duration#toString()} spells them. */
    @JdbcTypeCode(SqlTypes.ARRAY)
    public List<String> remindBefore = new ArrayList<>();

    @JdbcTypeCode(SqlTypes.ARRAY)
    public List<String> attendees = new ArrayList<>();

    /** Overrides the service's default notification target; null means the default. */
    public String webhookUrl;

    /** Gets a signed notice when a reminder of this meeting ends FAILED; null means the stream alone tells. */
    public String failureWebhookUrl;

    /** An RFC 5545 RRULE without its RRULE: prefix; null for a meeting that does not repeat. */
    public String recurrence;

    /** Occurrences of the series, by original start, that do not take place (EXDATE). */
    @JdbcTypeCode(SqlTypes.ARRAY)
    public List<Instant> cancelledOccurrences = new ArrayList<>();

    /**
     * Occurrences of the series moved one by one: original start (RECURRENCE-ID) to where each now takes place. A
     * change here raises the version like any other change.
     */
    @ElementCollection
    @CollectionTable(name = "occurrence_override", joinColumns = @JoinColumn(name = "meeting_id"))
    @MapKeyColumn(name = "occurrence")
    @Column(name = "starts_at")
    public Map<Instant, Instant> movedOccurrences = new HashMap<>();

    /**
     * Occurrences starting before this have their reminder rows; null for a one-off meeting. The horizon step moves it
     * without raising the version: a client's If-Match stays good while the service plans ahead.
     */
    @OptimisticLock(excluded = true)
    public Instant plannedUntil;

    /** When the horizon step next plans further; null when there is nothing further to plan. */
    @OptimisticLock(excluded = true)
    public Instant extendAt;

    @Version
    public long version;

    public Instant createdAt;

    public Instant updatedAt;

    public boolean hasStartedBy(Instant instant) {
        return !startsAt.isAfter(instant);
    }

    /** The owner's meeting with this id; empty for another owner's, as for one that does not exist. */
    public static Optional<Meeting> findOwned(String owner, UUID id) {
        return Meeting.<Meeting>findByIdOptional(id).filter(meeting -> meeting.isOwnedBy(owner));
    }

    /**
     * The owner's meeting, with its row lock held to the end of the transaction so that changes to it take turns.
     */
    public static Optional<Meeting> findOwnedForUpdate(String owner, UUID id) {
        return Meeting.<Meeting>findByIdOptional(id, LockModeType.PESSIMISTIC_WRITE)
                .filter(meeting -> meeting.isOwnedBy(owner));
    }

    /** The owner's meetings starting in [from, to), by start time. */
    public static List<Meeting> startingBetween(String owner, Instant from, Instant to, Page page) {
        return find(OWNED_STARTING_BETWEEN, Sort.by("startsAt").and("id"), ownedStartingBetween(owner, from, to))
                .page(page)
                .list();
    }

    public static long countStartingBetween(String owner, Instant from, Instant to) {
        return count(OWNED_STARTING_BETWEEN, ownedStartingBetween(owner, from, to));
    }

    /** Series whose horizon is due to be extended, locked, skipping those another replica is extending. */
    public static List<Meeting> dueForExtension(Instant now, int limit) {
        return find("extendAt <= ?1", Sort.by("extendAt"), now)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .withHint("jakarta.persistence.lock.timeout", -2)
                .page(0, limit)
                .list();
    }

    /**
     * Loads the moved occurrences of these meetings (already in this session) in one query, where reading each one's
     * would cost a query per meeting.
     */
    static void loadMovedOccurrences(List<Meeting> meetings) {
        if (!meetings.isEmpty()) {
            getEntityManager()
                    .createQuery(
                            "select distinct m from Meeting m left join fetch m.movedOccurrences where m in :meetings",
                            Meeting.class)
                    .setParameter("meetings", meetings)
                    .getResultList();
        }
    }

    public boolean isSeries() {
        return recurrence != null;
    }

    private boolean isOwnedBy(String caller) {
        return owner.equals(caller);
    }

    private static Parameters ownedStartingBetween(String owner, Instant from, Instant to) {
        return Parameters.with("owner", owner).and("from", from).and("to", to);
    }
}
