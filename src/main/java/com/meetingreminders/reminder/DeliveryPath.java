package com.meetingreminders.reminder;

/** Which path won a reminder for delivery. */
public enum DeliveryPath {
    /** The key-expiry event, claimed through the INCR guard. */
    EVENT,
    /** A sweep of the schedule. */
    SWEEP
}
