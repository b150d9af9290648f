package com.meetingreminders.idempotency;

import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;

/**
 * Deletes the answers of keys older than 24 hours, which no request reads any more. Every replica runs it; a row
 * another replica deleted first is simply not there.
 */
@ApplicationScoped
class ExpiredKeyCleanup {

    private final IdempotencyStore store;
    private final Clock clock;

    ExpiredKeyCleanup(IdempotencyStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    @Scheduled(
            every = "${reminders.idempotency.cleanup-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void deleteExpired() {
        int deleted = store.deleteCreatedBefore(clock.instant().minus(AnswerLedger.RETENTION));
        if (deleted > 0) {
            Log.debugf("Deleted %d expired idempotency keys", deleted);
        }
    }
}
