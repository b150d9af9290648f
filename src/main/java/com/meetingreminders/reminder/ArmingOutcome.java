package com.meetingreminders.reminder;

/**
 * What arming after a commit asks of the delivery runtime. Fired as a CDI event that the runtime observes, so that the
 * reminder rows need not know who sweeps and who reconciles.
 */
public enum ArmingOutcome {
    /** A reminder was armed already due: sweep now rather than at the next due time. */
    DUE_NOW,
    /** Redis refused the change: it may lack reminders the database has until reconciliation arms them. */
    FAILED
}
