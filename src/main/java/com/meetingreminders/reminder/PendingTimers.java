package com.meetingreminders.reminder;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * Gathers what a transaction changes in schedules and applies it to the timers once, after the commit: one Redis call
 * for a batch of a thousand meetings rather than a thousand.
 */
@ApplicationScoped
public class PendingTimers {

    private static final Object KEY = PendingTimers.class;

    private final TransactionSynchronizationRegistry transactions;
    private final ReminderArming arming;
    private final ReminderMetrics metrics;

    PendingTimers(TransactionSynchronizationRegistry transactions, ReminderArming arming, ReminderMetrics metrics) {
        this.transactions = transactions;
        this.arming = arming;
        this.metrics = metrics;
    }

    /** Records a change of the current JTA transaction; nothing happens to the timers if it rolls back. */
    public void add(ScheduleChange change) {
        if (change.isEmpty()) {
            return;
        }
        @SuppressWarnings("unchecked")
        List<ScheduleChange> pending = (List<ScheduleChange>) transactions.getResource(KEY);
        if (pending == null) {
            List<ScheduleChange> changes = new ArrayList<>();
            transactions.putResource(KEY, changes);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {}

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        committed(changes);
                    }
                }
            });
            pending = changes;
        }
        pending.add(change);
    }

    /** Applies the changes of a transaction that has just committed, as one. */
    public void committed(List<ScheduleChange> changes) {
        ScheduleChange committed = ScheduleChange.merge(changes);
        metrics.committed(committed);
        arming.afterCommit(committed);
    }
}
