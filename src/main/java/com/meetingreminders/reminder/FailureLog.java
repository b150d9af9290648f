package com.meetingreminders.reminder;

import org.jboss.logging.Logger;

/** Logs a failure that repeats (Redis or the database away) once, and its recovery once, instead of on every try. */
final class FailureLog {

    private final Logger log;
    private final String what;
    private String lastFailure;

    FailureLog(Class<?> owner, String what) {
        this.log = Logger.getLogger(owner);
        this.what = what;
    }

    synchronized void failed(RuntimeException e) {
        String failure = String.valueOf(e.getMessage());
        if (!failure.equals(lastFailure)) {
            log.warnf("%s failed, trying again: %s", what, failure);
            log.debug("Cause", e);
            lastFailure = failure;
        }
    }

    synchronized void succeeded() {
        if (lastFailure != null) {
            log.infof("%s works again", what);
            lastFailure = null;
        }
    }
}
