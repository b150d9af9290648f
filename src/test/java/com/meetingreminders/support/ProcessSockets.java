package com.meetingreminders.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What Linux's {@code /proc} says of processes and their TCP connections: whether all the threads of one are stopped,
 * the local ports of its connections to a server, and whether the server still holds connections from those ports. A
 * receiver tells by a request's client port which process sent it, however late it reads the request.
 *
 * <p>The kernel writes its connection tables in pieces, so a connection that opens or closes meanwhile may be left out
 * of one reading; every question here reads them twice.
 */
final class ProcessSockets {

    private static final String SOCKET_LINK = "socket:[";
    private static final Set<String> HELD_OPEN = Set.of("01", "08"); // ESTABLISHED, CLOSE_WAIT

    private ProcessSockets() {}

    /** One line of {@code /proc/<pid>/net/tcp} or {@code tcp6}. */
    private record Connection(int localPort, int remotePort, String state, String inode) {

        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
        static Connection of(String line) {
            String[] fields = line.trim().split("\\s+");
            return new Connection(port(fields[1]), port(fields[2]), fields[3], fields[9]);
        }

        /** An address as the tables write it: the port is hexadecimal, after the last colon. */
        private static int port(String address) {
            return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
        }
    }

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
        return twice(process)
                .filter(connection -> inodes.contains(connection.inode()) && connection.remotePort() == remotePort)
                .map(Connection::localPort)
                .collect(Collectors.toSet());
    }

    /** True while this process holds a connection on {@code localPort} from one of {@code remotePorts}, not closed. */
    static boolean holdsConnections(int localPort, Set<Integer> remotePorts) {
        return twice(Path.of("/proc", "self"))
                .anyMatch(connection -> connection.localPort() == localPort
                        && remotePorts.contains(connection.remotePort())
                        && HELD_OPEN.contains(connection.state()));
    }

    private static Stream<Connection> twice(Path process) {
        return Stream.concat(connections(process).stream(), connections(process).stream());
    }

    private static List<Connection> connections(Path process) {
        List<Connection> connections = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            try (Stream<String> lines = Files.lines(process.resolve("net").resolve(table))) {
                lines.skip(1).map(Connection::of).forEach(connections::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return connections;
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
