package com.meetingreminders.meeting;

/** A change named a meeting version (If-Match) that is no longer current. */
public class StaleVersionException extends RuntimeException {

    private final long currentVersion;

    StaleVersionException(long currentVersion) {
        super("The meeting has changed: its current version is " + currentVersion, null, false, false);
        this.currentVersion = currentVersion;
    }

    public long currentVersion() {
        return currentVersion;
    }
}
