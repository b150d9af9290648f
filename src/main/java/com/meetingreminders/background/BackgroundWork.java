package com.meetingreminders.background;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Every thread the service runs in the background is made here, and stopped here, in one order: loops first (they
 * take new work), then the drains of work in flight that is not a pool's task (the dispatcher's rounds), then the
 * pools, whose queued tasks may finish, then what must outlive them all (the webhook client). Drains and pools share
 * one deadline, the grace the caller of {@link #stop} names; whatever is still under way then is cut short, and left
 * to the leases of the other replicas.
 */
@ApplicationScoped
public class BackgroundWork {

    private static final Logger LOG = Logger.getLogger(BackgroundWork.class);

    /** Work in flight that a stop must hand back or let finish, within what is left of the grace. */
    public interface Drain {
        void drain(Duration left) throws InterruptedException;
    }

    private record Pool(String name, ExecutorService executor) {}

    /** Guarded by this, each in the order made. */
    private final List<GuardedLoop> loops = new ArrayList<>();

    private final List<Drain> drains = new ArrayList<>();
    private final List<Pool> pools = new ArrayList<>();
    private final List<AutoCloseable> lastToClose = new ArrayList<>();
    private boolean stopped;

    /** A loop on a thread of its own, named {@code name}; its owner starts it, {@link #stop} stops it. */
    public synchronized GuardedLoop loop(
            Class<?> owner, String name, GuardedLoop.Step step, Duration pauseAfterFailure, Runnable wake) {
        GuardedLoop loop = new GuardedLoop(owner, name, step, pauseAfterFailure, wake, namedDaemons(name, 1));
        loops.add(loop);
        return loop;
    }

    /** A pool of {@code threads} daemon threads, named {@code name} (one) or {@code name-1}, {@code name-2}, ... */
    public synchronized ExecutorService pool(String name, int threads) {
        ExecutorService executor = Executors.newFixedThreadPool(threads, namedDaemons(name, threads));
        pools.add(new Pool(name, executor));
        return executor;
    }

    /** One daemon thread named {@code name}, whose tasks run in the order given. */
    public ExecutorService worker(String name) {
        return pool(name, 1);
    }

    /** Runs at stop, after the loops and before the pools. */
    public synchronized void onStop(Drain drain) {
        drains.add(drain);
    }

    /** Closed at stop, after the pools: a resource their last tasks may still use. */
    public synchronized void closeLast(AutoCloseable resource) {
        lastToClose.add(resource);
    }

    /**
     * Stops everything made here, in order, once: loops, drains, pools, resources. Drains and pools together take at
     * most {@code grace}; pools still busy after it are interrupted.
     */
    public void stop(Duration grace) throws InterruptedException {
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        // Nothing is added once stopped, so the lists are read without the lock: a drain may take the whole grace.
        for (GuardedLoop loop : loops) {
            loop.stop();
        }
        long deadline = System.nanoTime() + grace.toNanos();
        for (Drain drain : drains) {
            drain.drain(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        pools.forEach(pool -> pool.executor().shutdown());
        for (Pool pool : pools) {
            long left = Math.max(0, deadline - System.nanoTime());
            if (!pool.executor().awaitTermination(left, TimeUnit.NANOSECONDS)) {
                int dropped = pool.executor().shutdownNow().size();
                if (dropped > 0) {
                    LOG.warnf("%s: %d tasks not started within %s are dropped", pool.name(), dropped, grace);
                }
            }
        }
        for (AutoCloseable resource : lastToClose) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warnf("Could not close %s: %s", resource, e.getMessage());
            }
        }
    }

    /** When the application never ran its shutdown (it failed to start), its threads still end, without waiting. */
    @PreDestroy
    void stopIfNotStopped() throws InterruptedException {
        stop(Duration.ZERO);
    }

    private static ThreadFactory namedDaemons(String name, int threads) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, threads == 1 ? name : name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
