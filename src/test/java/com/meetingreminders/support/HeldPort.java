package com.meetingreminders.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server that hangs, then recovers: a loopback port that takes connections and answers nothing, not a byte, until
 * {@link #release}, after which every connection it took, and every later one, is joined to {@code target}'s port as
 * if it had been there all along. What a client sent meanwhile is passed on too. It counts the connections it took and
 * those that have ended, so that a test can wait until a client is done with it.
 */
public final class HeldPort implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicInteger taken = new AtomicInteger();
    private final AtomicInteger ended = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    private HeldPort(ServerSocket server, int target) {
        this.server = server;
        this.target = target;
        this.acceptor = daemon(this::accept);
        acceptor.start();
    }

    /** Holds {@code port} on 127.0.0.1, to be joined to {@code target} there once released. */
    public static HeldPort on(int port, int target) {
        try {
            return new HeldPort(new ServerSocket(port, 50, InetAddress.getLoopbackAddress()), target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** From now on, connections reach the target. */
    public void release() {
        released.countDown();
    }

    /** How many connections it has taken. */
    public int taken() {
        return taken.get();
    }

    /** Whether every connection it took has ended, on one side or the other. */
    public boolean allEnded() {
        return ended.get() == taken.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                taken.incrementAndGet();
                sockets.add(client);
                daemon(() -> join(client)).start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void join(Socket client) {
        try (client;
                Socket behind = new Socket(InetAddress.getLoopbackAddress(), awaitRelease())) {
            sockets.add(behind);
            Thread back = daemon(() -> pipe(behind, client));
            back.start();
            pipe(client, behind);
            back.join();
        } catch (IOException | InterruptedException e) {
            // The connection ends either way; which side ended it does not matter here.
        } finally {
            ended.incrementAndGet();
        }
    }

    private Thread daemon(Runnable work) {
        Thread thread = new Thread(work, "held-port-" + server.getLocalPort());
        thread.setDaemon(true);
        return thread;
    }

    private int awaitRelease() throws InterruptedException {
        released.await();
        return target;
    }

    /** Copies until {@code from} ends, then ends both directions. */
    private static void pipe(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            in.transferTo(out);
        } catch (IOException e) {
            // Ended by the other direction closing the sockets.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already closed.
        }
    }

    /**
     * Stops listening, and returns once the port is free to bind again: the JDK closes a server socket that a thread
     * is accepting on only once that thread has left accept, so until then the port would still be listened on.
     */
    @Override
    public void close() {
        released.countDown();
        closeQuietly(server);
        sockets.forEach(HeldPort::closeQuietly);
        try {
            acceptor.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already closed.
        }
    }
}
