package com.meetingreminders.meeting;

import com.meetingreminders.support.Moments;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generated JSON for the property test, written as text so that it may hold what no JSON library writes: any UTF-16
 * unit (controls, lone surrogates) as an escape, bare NaN, numbers of any length, duplicate keys, and bodies cut short.
 * Meeting objects mix valid values with anything, so that some pass and the rest probe one field at a time.
 */
final class HostileJson {

    private static final List<String> FIELDS =
            List.of("title", "startsAt", "timeZone", "remindBefore", "attendees", "webhookUrl");

    private HostileJson() {}

    /** Any string, including every control and surrogate, and some of the shapes the fields expect. */
    static Arbitrary<String> text() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(40),
                Arbitraries.strings()
                        .withChars("\u0000\n\r\t\u0085\u2028\ud800\udc00\"\\ax@.:/")
                        .ofMaxLength(12),
                Arbitraries.of(
                        "PT5M",
                        "PT0.0005S",
                        "P30D",
                        "P31D",
                        "-PT1M",
                        "+294277-01-01T00:00:00Z",
                        "2030-01-01T00:00:00",
                        "Europe/Paris",
                        "+08:00",
                        "a@example.com",
                        "A@EXAMPLE.COM",
                        "http://127.0.0.1:9/x",
                        "http://127.1/x",
                        "http://127.0.0.1:65536/",
                        "http://bad_host/x",
                        "",
                        " "));
    }

    static Arbitrary<String> value(int depth) {
        Arbitrary<String> scalar = Arbitraries.oneOf(
                text().map(HostileJson::quoted),
                Arbitraries.longs().map(String::valueOf),
                Arbitraries.doubles().map(String::valueOf),
                Arbitraries.of("true", "false", "null", "NaN", "1e400", "-0", "9".repeat(1200), "[]", "{}"));
        if (depth == 0) {
            return scalar;
        }
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, scalar),
                net.jqwik.api.Tuple.of(1, value(depth - 1).list().ofMaxSize(4).map(items -> items.stream()
                        .collect(Collectors.joining(",", "[", "]")))),
                net.jqwik.api.Tuple.of(1, object(value(depth - 1))));
    }

    /** A meeting: each field valid, left out or anything; sometimes a stray or repeated key. */
    static Arbitrary<String> meeting() {
        Arbitrary<String> member = Arbitraries.of(FIELDS)
                .flatMap(field -> Arbitraries.oneOf(Arbitraries.just(validValue(field)), value(2), Arbitraries.just(""))
                        .map(value -> value.isEmpty() ? "" : quoted(field) + ":" + value));
        Arbitrary<List<String>> members = member.list().ofMinSize(0).ofMaxSize(8);
        return Combinators.combine(members, Arbitraries.integers().between(0, 9))
                .as((chosen, shape) -> {
                    List<String> all = new java.util.ArrayList<>();
                    all.add(quoted("title") + ":" + validValue("title"));
                    all.add(quoted("startsAt") + ":" + validValue("startsAt"));
                    chosen.stream().filter(m -> !m.isEmpty()).forEach(all::add);
                    String object = "{" + String.join(",", dropRepeats(all, shape == 0)) + "}";
                    return shape == 9 ? object.substring(0, object.length() / 2) : object;
                });
    }

    static Arbitrary<String> batch() {
        return Arbitraries.oneOf(
                meeting().list().ofMaxSize(5).map(items -> "[" + String.join(",", items) + "]"), value(2));
    }

    /** A query of GET /meetings: each parameter left out, valid or anything, URL-encoded. */
    static Arbitrary<String> query() {
        Arbitrary<String> any = Arbitraries.oneOf(
                text(),
                Arbitraries.of("0", "1", "100", "101", "1000000", "1000001", "-1", "2147483648", "1e2", "0x10"),
                Arbitraries.of("2030-01-01T00:00:00Z", "+300000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"));
        return Combinators.combine(any.list().ofSize(4), Arbitraries.integers().between(0, 15))
                .as((values, present) -> {
                    List<String> names = List.of("from", "to", "page", "size");
                    StringBuilder query = new StringBuilder();
                    for (int i = 0; i < names.size(); i++) {
                        if ((present & (1 << i)) != 0) {
                            query.append(query.isEmpty() ? "" : "&")
                                    .append(names.get(i))
                                    .append('=')
                                    .append(URLEncoder.encode(values.get(i), StandardCharsets.UTF_8));
                        }
                    }
                    return query.toString();
                });
    }

    private static Arbitrary<String> object(Arbitrary<String> values) {
        Arbitrary<String> member = Combinators.combine(Arbitraries.oneOf(Arbitraries.of(FIELDS), text()), values)
                .as((key, value) -> quoted(key) + ":" + value);
        return member.list().ofMaxSize(4).map(items -> "{" + String.join(",", items) + "}");
    }

    /** Keeps the last of each key, unless repeats are wanted (then the JSON has duplicate keys). */
    private static List<String> dropRepeats(List<String> members, boolean keepRepeats) {
        if (keepRepeats) {
            return members;
        }
        java.util.Map<String, String> byKey = new java.util.LinkedHashMap<>();
        members.forEach(m -> byKey.put(m.substring(0, m.indexOf("\":") + 1), m));
        return List.copyOf(byKey.values());
    }

    private static String validValue(String field) {
        return switch (field) {
            case "title" -> quoted("Generated");
            case "startsAt" -> quoted(Moments.now().plusSeconds(7200).toString());
            case "timeZone" -> quoted("Asia/Shanghai");
            case "remindBefore" -> "[\"PT5M\",\"PT1H\"]";
            case "attendees" -> "[\"a@example.com\"]";
            default -> quoted("http://127.0.0.1:9/hook");
        };
    }

    /** A JSON string holding the text: quotes, backslashes, controls and every surrogate as escapes. */
    static String quoted(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20 || Character.isSurrogate(c)) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }
}
