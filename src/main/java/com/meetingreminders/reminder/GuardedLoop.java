package com.meetingreminders.reminder;

import java.time.Duration;

/**
 * Runs one step over and over on its own thread until stopped. A failing step is logged and tried again after a
 * pause, so the loop outlives Redis or database outages.
 */
final class GuardedLoop {

    /** One turn of the loop; it may block, and returns early when interrupted. */
    interface Step {
        void run() throws InterruptedException;
    }

    private final String name;
    private final Step step;
    private final Duration pauseAfterFailure;
    private final FailureLog failures;
    private volatile boolean running;
    private Thread thread;

    GuardedLoop(Class<?> owner, String name, Step step, Duration pauseAfterFailure) {
        this.name = name;
        this.step = step;
        this.pauseAfterFailure = pauseAfterFailure;
        this.failures = new FailureLog(owner, name);
    }

    synchronized void start() {
        running = true;
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the loop and waits for the step under way to end. */
    synchronized void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join();
            thread = null;
        }
    }

    private void loop() {
        while (running) {
            try {
                step.run();
                failures.succeeded();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return; // stopping: a call cut short by the interrupt is not a failure
                }
                failures.failed(e);
                try {
                    Thread.sleep(pauseAfterFailure.toMillis());
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }
}
