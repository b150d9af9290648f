package com.meetingreminders.background;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;

/**
 * Runs one step over and over on its own thread until stopped. A failing step is logged and tried again after a
 * pause, so the loop outlives Redis or database outages. Stopping lets the step under way finish: a step cut short
 * in a Redis call could leave entries leased to nobody until their lease ends.
 */
public final class GuardedLoop {

    /** One turn of the loop; a step that waits must return when woken, and early when interrupted. */
    public interface Step {
        void run() throws InterruptedException;
    }

    /** How long a stop waits for the step under way before interrupting it. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final ThreadFactory threads;
    private final Step step;
    private final Duration pauseAfterFailure;
    private final FailureLog failures;
    private final Runnable wake;
    private volatile boolean running;
    private Thread thread;

    /** {@code wake} ends a wait of the step early, so that a stop need not interrupt it. Made by {@link BackgroundWork}. */
    GuardedLoop(
            Class<?> owner, String name, Step step, Duration pauseAfterFailure, Runnable wake, ThreadFactory threads) {
        this.threads = threads;
        this.step = step;
        this.pauseAfterFailure = pauseAfterFailure;
        this.failures = new FailureLog(owner, name);
        this.wake = wake;
    }

    public synchronized void start() {
        running = true;
        thread = threads.newThread(this::loop);
        thread.start();
    }

    /** Stops the loop once the step under way has ended; interrupts it only if it takes longer than it should. */
    synchronized void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            wake.run();
            thread.join(PATIENCE.toMillis());
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join();
            }
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
                    // Outages only: a plain pause, cut short by a stop's interrupt at worst.
                    Thread.sleep(pauseAfterFailure.toMillis());
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }
}
