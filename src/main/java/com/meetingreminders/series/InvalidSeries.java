package com.meetingreminders.series;

/** A recurrence the service does not take; the message says why, for the {@code recurrence} field. */
public class InvalidSeries extends RuntimeException {

    public InvalidSeries(String message) {
        super(message, null, false, false);
    }
}
