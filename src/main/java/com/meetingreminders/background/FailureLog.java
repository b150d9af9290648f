package com.meetingreminders.background;

import org.jboss.logging.Logger;

/** Logs a failure that repeats (Redis or the database away) once, and its recovery once, instead of on every try. */
public final class FailureLog {

    private final Logger log;
    private final String what;
    private String lastFailure;

    public FailureLog(Class<?> owner, String what) {
        this.log = Logger.getLogger(owner);
        this.what = what;
    }

    public synchronized void failed(RuntimeException e) {
        String failure = String.valueOf(e.getMessage());
        if (!failure.equals(lastFailure)) {
            log.warnf("%s failed, trying again: %s", what, failure);
            log.debug("Cause", e);
            lastFailure = failure;
        }
    }

    public synchronized void succeeded() {
        if (lastFailure != null) {
            log.infof("%s works again", what);
            lastFailure = null;
        }
    }
}
