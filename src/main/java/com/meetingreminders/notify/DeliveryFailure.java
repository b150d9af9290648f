package com.meetingreminders.notify;

import java.util.concurrent.CompletionException;

/** A channel could not deliver; the message says why in words fit for {@code lastError}, without internals. */
public class DeliveryFailure extends RuntimeException {

    public DeliveryFailure(String message) {
        super(message, null, false, false);
    }

    /** What made a future fail: the cause a {@link CompletionException} carries, or the failure itself. */
    static Throwable unwrapped(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
