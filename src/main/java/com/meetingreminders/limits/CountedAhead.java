package com.meetingreminders.limits;

/**
 * Requests of a caller's that a call of the rate script counted ahead: how many, until when the replica may let the
 * caller's requests through on them ({@code untilNanos}, on the replica's ticker), and the caller's due time that call
 * left ({@code dueMicros}, on Redis's clock), which bounds how much of them the next call may give back. What is given
 * back is one too, its {@code requests} those not spent; {@link #NONE} is what a failed call counted.
 */
record CountedAhead(long requests, long untilNanos, long dueMicros) {

    static final CountedAhead NONE = new CountedAhead(0, 0, 0);
}
