package com.meetingreminders.background;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The one way background threads are made and stopped: named daemons, stopped once, in order, within the grace. */
class BackgroundWorkUnitTest {

    /** Long enough never to be reached on a working machine; it only keeps a broken test from hanging. */
    private static final long BOUND_SECONDS = 30;

    @Test
    void poolsAndWorkersRunOnNamedDaemonThreads() throws Exception {
        BackgroundWork background = new BackgroundWork();
        ExecutorService pool = background.pool("test-pool", 2);
        ExecutorService worker = background.worker("test-worker");

        Thread inPool = pool.submit(Thread::currentThread).get(BOUND_SECONDS, TimeUnit.SECONDS);
        Thread inWorker = worker.submit(Thread::currentThread).get(BOUND_SECONDS, TimeUnit.SECONDS);
        background.stop(Duration.ofSeconds(BOUND_SECONDS));

        assertThat(inPool.getName()).isEqualTo("test-pool-1");
        assertThat(inPool.isDaemon()).isTrue();
        assertThat(inWorker.getName()).isEqualTo("test-worker");
        assertThat(inWorker.isDaemon()).isTrue();
    }

    @Test
    void stopEndsTheLoopsThenDrainsThenLetsQueuedTasksFinishThenClosesWhatIsLeft() throws Exception {
        BackgroundWork background = new BackgroundWork();
        List<String> events = new CopyOnWriteArrayList<>();
        Waiter waiter = new Waiter();
        AtomicReference<Thread> loopThread = new AtomicReference<>();
        CountDownLatch looping = new CountDownLatch(1);
        GuardedLoop loop = background.loop(
                BackgroundWorkUnitTest.class,
                "test-loop",
                () -> {
                    loopThread.set(Thread.currentThread());
                    looping.countDown();
                    waiter.await(Duration.ofSeconds(BOUND_SECONDS));
                },
                Duration.ofMillis(10),
                waiter::wake);
        ExecutorService worker = background.worker("test-worker");
        CountDownLatch inFlight = new CountDownLatch(1);
        worker.execute(() -> {
            try {
                inFlight.await();
                events.add("queued task done");
            } catch (InterruptedException e) {
                events.add("queued task interrupted");
            }
        });
        background.onStop(left -> {
            events.add(loopThread.get().isAlive() ? "drain with the loop running" : "drain");
            inFlight.countDown();
        });
        background.closeLast(() -> events.add("closed"));
        loop.start();
        assertThat(looping.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();

        background.stop(Duration.ofSeconds(BOUND_SECONDS));

        assertThat(events).containsExactly("drain", "queued task done", "closed");
        assertThat(loopThread.get().getName()).isEqualTo("test-loop");
        assertThat(loopThread.get().isDaemon()).isTrue();
        assertThatThrownBy(() -> worker.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void aTaskStillRunningWhenTheGraceIsOverIsInterrupted() throws Exception {
        BackgroundWork background = new BackgroundWork();
        ExecutorService worker = background.worker("test-worker");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        worker.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        assertThat(started.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();

        background.stop(Duration.ZERO);

        assertThat(interrupted.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aSecondStopDoesNothing() throws Exception {
        BackgroundWork background = new BackgroundWork();
        List<String> drains = new CopyOnWriteArrayList<>();
        background.onStop(left -> drains.add("drained within " + left));

        background.stop(Duration.ofSeconds(BOUND_SECONDS));
        background.stop(Duration.ofSeconds(BOUND_SECONDS));

        assertThat(drains).hasSize(1);
    }
}
