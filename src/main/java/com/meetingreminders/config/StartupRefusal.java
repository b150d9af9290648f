package com.meetingreminders.config;

/**
 * A replica that refuses to start because of a setting. The console log is asynchronous, and a start that fails may
 * end the process before that log is written: the message then went nowhere (seen on a loaded machine). So the reason
 * also goes straight to standard error, where an operator, a container runtime and the tests always find it.
 */
public final class StartupRefusal extends IllegalStateException {

    public StartupRefusal(String reason) {
        super(reason);
        System.err.println("Refusing to start: " + reason);
        System.err.flush();
    }
}
