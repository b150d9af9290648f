package com.meetingreminders.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What Linux's {@code /proc} says of another process: whether all its threads are stopped, and the local ports of its
 * TCP connections to a server. The server tells by a request's client port which process sent it, however late it
 * reads the request.
 */
final class ProcessSockets {

    private static final String SOCKET_LINK = "socket:[";

    private ProcessSockets() {}

    /** True once every thread of the process is stopped (state T), as after SIGSTOP. */
    static boolean allThreadsStopped(long pid) {
        try (Stream<Path> threads = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return threads.allMatch(ProcessSockets::isStopped);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isStopped(Path thread) {
        try {
            String stat = Files.readString(thread.resolve("stat"));
            // The command name, in parentheses, may hold spaces: the state is the first field after it.
            String afterName = stat.substring(stat.lastIndexOf(')') + 2);
            return afterName.charAt(0) == 'T';
        } catch (NoSuchFileException exited) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The local ports of the process's TCP connections to {@code remotePort}, IPv4 and IPv6. */
    static Set<Integer> localPortsOfConnectionsTo(long pid, int remotePort) {
        Path process = Path.of("/proc", Long.toString(pid));
        Set<String> inodes = socketInodes(process.resolve("fd"));
        Set<Integer> ports = new HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            try (Stream<String> lines = Files.lines(process.resolve("net").resolve(table))) {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                lines.skip(1).map(line -> line.trim().split("\\s+")).forEach(fields -> {
                    if (inodes.contains(fields[9]) && port(fields[2]) == remotePort) {
                        ports.add(port(fields[1]));
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return ports;
    }

    /** The port of an address as the tables write it: hexadecimal, after the last colon. */
    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
    }

    private static Set<String> socketInodes(Path descriptors) {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> links = Files.list(descriptors)) {
            for (Path link : (Iterable<Path>) links::iterator) {
                String target;
                try {
                    target = Files.readSymbolicLink(link).toString();
                } catch (NoSuchFileException closed) {
                    continue;
                }
                if (target.startsWith(SOCKET_LINK)) {
                    inodes.add(target.substring(SOCKET_LINK.length(), target.length() - 1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return inodes;
    }
}
