package com.meetingreminders.notify;

/** A channel could not deliver; the message says why in words fit for {@code lastError}, without internals. */
public class DeliveryFailure extends RuntimeException {

    public DeliveryFailure(String message) {
        super(message, null, false, false);
    }
}
