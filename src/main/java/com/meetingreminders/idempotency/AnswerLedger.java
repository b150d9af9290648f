package com.meetingreminders.idempotency;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.limits.LimitExceededException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs a create under an Idempotency-Key once: in one transaction it takes the key's lock, replays or refuses what the
 * key already answered, or runs the create and keeps its answer, so that the meetings and their answer commit together.
 */
@ApplicationScoped
class AnswerLedger {

    /** How long a key's answer is replayed (API.md: 24 hours). */
    static final Duration RETENTION = Duration.ofHours(24);

    /** What a keyed request is answered with, and whether it is the replay of an earlier answer. */
    record Outcome(StoredAnswer answer, boolean replayed) {}

    private final IdempotencyStore store;
    private final Clock clock;
    private final int maxKeysPerCaller;

    AnswerLedger(IdempotencyStore store, Clock clock, RemindersConfig config) {
        this.store = store;
        this.clock = clock;
        this.maxKeysPerCaller = config.idempotency().maxKeysPerCaller();
    }

    @Transactional
    Outcome answerOnce(String owner, String key, byte[] fingerprint, Supplier<StoredAnswer> create) {
        // The lock is held to the commit: a repeat racing the first, on any replica, never runs the create too.
        if (!store.tryLock(owner, key)) {
            throw IdempotencyRefusal.inUse();
        }
        Instant now = clock.instant();
        Instant since = now.minus(RETENTION);
        Optional<IdempotencyStore.Entry> earlier = store.findLive(owner, key, since);
        if (earlier.isPresent()) {
            if (!MessageDigest.isEqual(earlier.get().fingerprint(), fingerprint)) {
                throw IdempotencyRefusal.reused();
            }
            return new Outcome(earlier.get().answer(), true);
        }
        // Counted first so that a caller at the cap costs no create.
        refuseOverCap(owner, now);
        StoredAnswer answer = create.get();
        // Only an answer that changed something is kept: a refused create stored nothing, so running it again is
        // exactly what a corrected retry needs.
        if (answer.isSuccess()) {
            // Counted again where new keys take turns, on every replica, to the commit: of the owner's new keys that
            // raced past the first count, those beyond the cap roll back what they created.
            store.lockKeysOf(owner);
            refuseOverCap(owner, now);
            store.save(owner, key, fingerprint, answer, now);
        }
        return new Outcome(answer, false);
    }

    private void refuseOverCap(String owner, Instant now) {
        IdempotencyStore.LiveKeys live = store.countLive(owner, now.minus(RETENTION));
        if (live.count() >= maxKeysPerCaller) {
            Instant oneExpires = live.oldest().orElse(now).plus(RETENTION);
            throw new LimitExceededException(
                    "You used " + maxKeysPerCaller + " Idempotency-Keys within 24 hours; a new one is taken once the"
                            + " oldest expires.",
                    Duration.between(now, oneExpires));
        }
    }
}
