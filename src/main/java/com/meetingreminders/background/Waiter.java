package com.meetingreminders.background;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** A wait that ends at its timeout or as soon as someone calls {@link #wake()}; a wake that comes first is not lost. */
public final class Waiter {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition woken = lock.newCondition();
    private boolean wakeRequested;

    public void wake() {
        lock.lock();
        try {
            wakeRequested = true;
            woken.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void await(Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            while (!wakeRequested && nanos > 0) {
                nanos = woken.awaitNanos(nanos);
            }
            wakeRequested = false;
        } finally {
            lock.unlock();
        }
    }
}
