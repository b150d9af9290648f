package com.meetingreminders.support;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/** Many calls at once, from a pool of client threads: what a busy client or a crowd of them does. */
public final class AtOnce {

    private static final int CLIENTS = 16;

    private AtOnce() {}

    /**
     * {@code count} calls from 16 threads, the first 16 let go together once every thread is ready; their answers, in
     * order.
     */
    public static <T> List<T> calls(int count, IntFunction<T> call) {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        CountDownLatch ready = new CountDownLatch(Math.min(count, CLIENTS));
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<CompletableFuture<T>> calls = IntStream.range(0, count)
                    .mapToObj(i -> CompletableFuture.supplyAsync(
                            () -> {
                                ready.countDown();
                                awaitUninterruptibly(go);
                                return call.apply(i);
                            },
                            clients))
                    .toList();
            awaitUninterruptibly(ready);
            go.countDown();
            return calls.stream().map(CompletableFuture::join).toList();
        } finally {
            clients.shutdownNow();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while the calls were getting ready", e);
        }
    }
}
