package com.meetingreminders.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An SMTP server that takes every message and answers each command at once, in one segment: GreenMail's answers wait
 * on TCP's delayed acknowledgement (some 40 ms a command here), which keeps a client from ever sending fast. It keeps
 * the recipients of the messages it took.
 */
public final class QuickSmtp implements AutoCloseable {

    private final ServerSocket server;
    private final Thread acceptor;
    private final ConcurrentLinkedQueue<String> recipients = new ConcurrentLinkedQueue<>();

    private QuickSmtp(ServerSocket server) {
        this.server = server;
        this.acceptor = new Thread(this::accept, "quick-smtp");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens on {@code port} of 127.0.0.1. */
    public static QuickSmtp on(int port) {
        try {
            return new QuickSmtp(new ServerSocket(port, 50, InetAddress.getLoopbackAddress()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The recipients of the messages it has taken, one entry a recipient of each message. */
    public List<String> recipients() {
        return List.copyOf(recipients);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                client.setTcpNoDelay(true);
                Thread conversation = new Thread(() -> converse(client), "quick-smtp-client");
                conversation.setDaemon(true);
                conversation.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void converse(Socket client) {
        try (client) {
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
            OutputStream out = client.getOutputStream();
            answer(out, "220 quick");
            boolean inData = false;
            List<String> to = new ArrayList<>();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (inData) {
                    if (line.equals(".")) {
                        inData = false;
                        recipients.addAll(to);
                        to.clear();
                        answer(out, "250 taken");
                    }
                } else if (line.startsWith("RCPT TO:")) {
                    to.add(line.substring(line.indexOf('<') + 1, line.indexOf('>')));
                    answer(out, "250 ok");
                } else if (line.startsWith("DATA")) {
                    inData = true;
                    answer(out, "354 go on");
                } else if (line.startsWith("QUIT")) {
                    answer(out, "221 bye");
                    return;
                } else {
                    answer(out, "250 ok");
                }
            }
        } catch (IOException gone) {
            // The client went away: nothing to answer.
        }
    }

    private static void answer(OutputStream out, String reply) throws IOException {
        out.write((reply + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Stops listening; the port is free again once this returns. */
    @Override
    public void close() {
        try {
            server.close();
            // The port stays taken until the thread blocked in accept() has left it.
            acceptor.join(30_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
