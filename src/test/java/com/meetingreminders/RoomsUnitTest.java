package com.meetingreminders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rooms' imports run one way, down the order DEVELOPERS.md gives: a room imports only rooms on a lower floor, so
 * no two import each other. Read from the sources' import lines, as a reviewer would.
 */
class RoomsUnitTest {

    private static final Path SOURCES = Path.of("src/main/java/com/meetingreminders");

    /** DEVELOPERS.md, "Imports run one way": the top floor first. */
    private static final List<List<String>> FLOORS = List.of(
            List.of("web"),
            List.of("admin"),
            List.of("meeting", "delivery"),
            List.of("notify", "idempotency"),
            List.of("limits", "reminder", "signing"),
            List.of("timer", "security"),
            List.of("background", "config", "tracing", "series", "http", "jdbc"));

    /** They name the classes they document or register: they import rooms, and no room imports them. */
    private static final List<String> ABOVE_THE_ROOMS = List.of("", "openapi");

    private static final Pattern IMPORT =
            Pattern.compile("^import (?:static )?com\\.meetingreminders\\.([a-z]+)\\.", Pattern.MULTILINE);

    @Test
    void everyRoomIsOnAFloor() throws IOException {
        try (Stream<Path> rooms = Files.list(SOURCES)) {
            assertThat(rooms.filter(Files::isDirectory)
                            .map(room -> room.getFileName().toString()))
                    .allMatch(room -> floorOf(room) >= 0 || ABOVE_THE_ROOMS.contains(room));
        }
    }

    @Test
    void everyImportGoesToALowerFloor() throws IOException {
        List<String> upOrAcross = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String room = roomOf(file);
                Matcher imported = IMPORT.matcher(Files.readString(file));
                while (imported.find()) {
                    String target = imported.group(1);
                    if (!target.equals(room) && !below(room, target)) {
                        upOrAcross.add(SOURCES.relativize(file) + " imports " + target);
                    }
                }
            }
        }
        assertThat(upOrAcross).isEmpty();
    }

    private static boolean below(String room, String target) {
        if (ABOVE_THE_ROOMS.contains(target)) {
            return false;
        }
        return ABOVE_THE_ROOMS.contains(room) || floorOf(target) > floorOf(room);
    }

    private static String roomOf(Path file) {
        Path relative = SOURCES.relativize(file);
        return relative.getNameCount() == 1 ? "" : relative.getName(0).toString();
    }

    private static int floorOf(String room) {
        for (int floor = 0; floor < FLOORS.size(); floor++) {
            if (FLOORS.get(floor).contains(room)) {
                return floor;
            }
        }
        return -1;
    }

    @Test
    void theFloorsNameEachRoomOnce() {
        Map<String, Long> counts = FLOORS.stream()
                .flatMap(List::stream)
                .collect(Collectors.groupingBy(room -> room, Collectors.counting()));
        assertThat(counts).allSatisfy((room, count) -> assertThat(count).isOne());
    }
}
