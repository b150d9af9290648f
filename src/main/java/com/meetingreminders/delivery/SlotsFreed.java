package com.meetingreminders.delivery;

/**
 * A delivery round ended and gave its slots back. Fired as a CDI event, so that the dispatcher need not know that the
 * sweeper waits for room: a busy replica sweeps again as soon as it can.
 */
enum SlotsFreed {
    INSTANCE
}
