package com.meetingreminders.meeting;

import com.meetingreminders.http.Problem;
import com.meetingreminders.http.ProblemException;
import jakarta.ws.rs.core.Response;

/** A change named a meeting version (If-Match) that is no longer current: answered 412. */
public class StaleVersionException extends ProblemException {

    private final long currentVersion;

    StaleVersionException(long currentVersion) {
        super(Problem.of(
                Response.Status.PRECONDITION_FAILED,
                "The meeting has changed: its current version is " + currentVersion
                        + "; fetch it again before changing it."));
        this.currentVersion = currentVersion;
    }

    public long currentVersion() {
        return currentVersion;
    }
}
