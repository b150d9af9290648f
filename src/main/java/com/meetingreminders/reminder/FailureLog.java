package com.meetingreminders.reminder;

import io.quarkus.logging.Log;

/** Logs a failure that repeats (Redis or the database away) once, and its recovery once, instead of on every try. */
final class FailureLog {

    private final String what;
    private String lastFailure;

    FailureLog(String what) {
        this.what = what;
    }

    synchronized void failed(RuntimeException e) {
        String failure = String.valueOf(e.getMessage());
        if (!failure.equals(lastFailure)) {
            Log.warnf("%s failed, trying again: %s", what, failure);
            Log.debug("Cause", e);
            lastFailure = failure;
        }
    }

    synchronized void succeeded() {
        if (lastFailure != null) {
            Log.infof("%s works again", what);
            lastFailure = null;
        }
    }
}
