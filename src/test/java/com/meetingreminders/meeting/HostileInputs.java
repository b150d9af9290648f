package com.meetingreminders.meeting;

import static com.meetingreminders.support.JsonText.meeting;
import static com.meetingreminders.support.JsonText.quoted;

import com.meetingreminders.support.JsonText;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.RawHttp.Request;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The classes of hostile input the API must refuse cleanly, one named case each: the request, the status it must get
 * and the field the problem must name (null where none can be named: a 413, a 415). {@code {id}} in a path is a
 * meeting the test creates first.
 */
final class HostileInputs {

    static final String JSON = "application/json";

    private HostileInputs() {}

    static Stream<Arguments> all() {
        return Stream.of(
                        titles(),
                        startsAts(),
                        remindBefores(),
                        timeZones(),
                        attendees(),
                        webhookUrls(),
                        bodies(),
                        batches(),
                        queries(),
                        replaces(),
                        patches(),
                        recurrences())
                .flatMap(cases -> cases);
    }

    static Stream<Arguments> titles() {
        return Stream.of(
                post("title with NUL", meeting().text("title", "a\\u0000b"), "title"),
                post("title with a line feed", meeting().text("title", "a\\nb"), "title"),
                post("title with CR LF and a header", meeting().text("title", "a\\r\\nBcc: x@evil.test"), "title"),
                post("title with a tab", meeting().text("title", "a\\tb"), "title"),
                post("title with DEL", meeting().text("title", "a\\u007fb"), "title"),
                post("title with C1 NEL", meeting().text("title", "a\\u0085b"), "title"),
                post("title with U+2028 line separator", meeting().text("title", "a\\u2028b"), "title"),
                post("title with U+2029 paragraph separator", meeting().text("title", "a\\u2029b"), "title"),
                post("title with a lone high surrogate", meeting().text("title", "a\\ud800b"), "title"),
                post("title with a lone low surrogate", meeting().text("title", "a\\udc00"), "title"),
                post("title as an object", meeting().raw("title", "{\"a\":1}"), "title"),
                post("title as an array", meeting().raw("title", "[\"a\"]"), "title"),
                post("title as a boolean", meeting().raw("title", "true"), "title"),
                post("title empty", meeting().text("title", ""), "title"),
                post("title of 60,000 characters", meeting().text("title", "x".repeat(60_000)), "title"),
                post("title as bare NaN", meeting().raw("title", "NaN"), "title"),
                post("title as a 2,000-digit number", meeting().raw("title", "9".repeat(2_000)), "body"),
                post("title nested 3,000 arrays deep", meeting().raw("title", nested(3_000)), "title"));
    }

    static Stream<Arguments> startsAts() {
        String tooFar =
                Moments.now().atOffset(ZoneOffset.UTC).plusYears(10).plusDays(2).toString();
        return Stream.of(
                post("startsAt in year +294277", meeting().text("startsAt", "+294277-01-01T00:00:00Z"), "startsAt"),
                post(
                        "startsAt in year +999999999",
                        meeting().text("startsAt", "+999999999-12-31T00:00:00Z"),
                        "startsAt"),
                post("startsAt in year 10000", meeting().text("startsAt", "+10000-01-01T00:00:00Z"), "startsAt"),
                post("startsAt over ten years ahead", meeting().text("startsAt", tooFar), "startsAt"),
                post(
                        "startsAt with year beyond parsing",
                        meeting().text("startsAt", "+1000000000-01-01T00:00Z"),
                        "startsAt"),
                post("startsAt empty", meeting().text("startsAt", ""), "startsAt"),
                post("startsAt 1e400", meeting().raw("startsAt", "1e400"), "startsAt"),
                post("startsAt as an array", meeting().raw("startsAt", "[\"2030-01-01T00:00:00Z\"]"), "startsAt"),
                post(
                        "startsAt with offset +25:00",
                        meeting().text("startsAt", "2030-01-01T00:00:00+25:00"),
                        "startsAt"),
                post("startsAt on 30 February", meeting().text("startsAt", "2030-02-30T00:00:00Z"), "startsAt"),
                post("startsAt with a NUL", meeting().text("startsAt", "2030-01-01T00:00:00Z\\u0000"), "startsAt"));
    }

    static Stream<Arguments> remindBefores() {
        return Stream.of(
                post(
                        "remindBefore of half a millisecond",
                        meeting().raw("remindBefore", "[\"PT0.0005S\"]"),
                        "remindBefore[0]"),
                post(
                        "remindBefore of 100 ns beside PT0S",
                        meeting().raw("remindBefore", "[\"PT0S\",\"PT0.0000001S\"]"),
                        "remindBefore[1]"),
                post(
                        "remindBefore that overflows",
                        meeting().raw("remindBefore", "[\"PT99999999999999999999H\"]"),
                        "remindBefore[0]"),
                post("remindBefore element nested", meeting().raw("remindBefore", "[[\"PT5M\"]]"), "remindBefore[0]"),
                post("remindBefore element an object", meeting().raw("remindBefore", "[{}]"), "remindBefore[0]"),
                post("remindBefore element null", meeting().raw("remindBefore", "[null]"), "remindBefore[0]"),
                post("remindBefore element empty", meeting().raw("remindBefore", "[\"\"]"), "remindBefore[0]"));
    }

    static Stream<Arguments> timeZones() {
        return Stream.of(
                post("timeZone of 10,000 characters", meeting().text("timeZone", "A".repeat(10_000)), "timeZone"),
                post("timeZone with NUL", meeting().text("timeZone", "UTC\\u0000"), "timeZone"),
                post("timeZone with a line feed", meeting().text("timeZone", "Europe/Paris\\n"), "timeZone"),
                post("timeZone as a number", meeting().raw("timeZone", "8"), "timeZone"));
    }

    static Stream<Arguments> attendees() {
        String local = "a".repeat(64);
        String longAddress = local + "@" + "b".repeat(60) + "." + "c".repeat(60) + "." + "d".repeat(60) + ".example";
        return Stream.of(
                post(
                        "attendee repeated in another case",
                        meeting().raw("attendees", "[\"ann@example.com\",\"ANN@Example.com\"]"),
                        "attendees[1]"),
                post(
                        "attendee over 254 characters",
                        meeting().raw("attendees", "[" + quoted(longAddress) + "]"),
                        "attendees[0]"),
                post(
                        "attendee with CR LF",
                        meeting().raw("attendees", "[\"a@example.com\\r\\nBcc: x@evil.test\"]"),
                        "attendees[0]"),
                post("attendee with C1", meeting().raw("attendees", "[\"a\\u0085b@example.com\"]"), "attendees[0]"),
                post("attendee with U+2028", meeting().raw("attendees", "[\"a\\u2028b@example.com\"]"), "attendees[0]"),
                post("attendees as a string", meeting().text("attendees", "a@example.com"), "attendees"),
                post("attendee as a number", meeting().raw("attendees", "[7]"), "attendees[0]"),
                post("attendee nested", meeting().raw("attendees", "[[\"a@example.com\"]]"), "attendees[0]"),
                post("attendee null", meeting().raw("attendees", "[null]"), "attendees[0]"));
    }

    static Stream<Arguments> webhookUrls() {
        return Stream.of(
                webhook("webhookUrl of 3,000 characters", "http://127.0.0.1:9/" + "x".repeat(3_000)),
                webhook("webhookUrl host with an underscore", "http://bad_host.example/x"),
                webhook("webhookUrl host with a trailing dot", "http://127.0.0.1./x"),
                webhook("webhookUrl IDN host", "http://bücher.example/x"),
                webhook("webhookUrl IPv4 shorthand 127.1", "http://127.1/x"),
                webhook("webhookUrl IPv4 in hex", "http://0x7f.0.0.1/x"),
                webhook("webhookUrl IPv4 in octal", "http://0177.0.0.1/x"),
                webhook("webhookUrl IPv4 as one number", "http://2130706433/x"),
                webhook("webhookUrl port 65536", "http://127.0.0.1:65536/x"),
                webhook("webhookUrl port 0", "http://127.0.0.1:0/x"),
                webhook("webhookUrl port of eleven digits", "http://127.0.0.1:99999999999/x"),
                webhook("webhookUrl with user info", "http://user:pw@127.0.0.1:9/x"),
                webhook("webhookUrl javascript scheme", "javascript:alert(1)"),
                webhook("webhookUrl file scheme", "file:///etc/passwd"),
                webhook("webhookUrl with a space", "http://127.0.0.1:9/a b"),
                webhook("webhookUrl with a lone surrogate", "http://127.0.0.1:9/\\ud800"),
                webhook("webhookUrl with a percent-encoded host", "http://%31%32%37.0.0.1/x"),
                webhook("webhookUrl without a host", "http:///x"),
                post("webhookUrl as an object", meeting().raw("webhookUrl", "{}"), "webhookUrl"));
    }

    static Stream<Arguments> bodies() {
        JsonText valid = meeting();
        String json = valid.json();
        byte[] latin1 = meeting().text("title", "caf\u00e9").json().getBytes(StandardCharsets.ISO_8859_1);
        return Stream.of(
                post("duplicate key", json.replace("{", "{\"title\":\"first\","), "title"),
                post("trailing garbage", json + " x", "body"),
                post("a second object after the first", json + " {}", "body"),
                post("invalid UTF-8 in a string", latin1, "title"),
                // Three zero bytes first: Jackson reads UTF-32, and the fifth byte ends in the middle of a character.
                post("UTF-32 cut off mid-character", new byte[] {0, 0, 0, '{', 0}, "body"),
                // A zero byte first and a second byte not zero: UTF-16, which the JDK's decoder reads, not Jackson's.
                post("UTF-16 with an odd number of bytes", new byte[] {0, '{', 0}, "body"),
                post("UTF-16 with a lone high surrogate", new byte[] {0, '{', 0, '"', (byte) 0xd8, 0, 0, '"'}, "body"),
                post("empty body", "", "body"),
                post("whitespace only", "  \n ", "body"),
                post("a top-level array", "[" + json + "]", "body"),
                post("unknown field nested 5,000 deep", json.replace("{", "{\"x\":" + nested(5_000) + ","), "body"),
                Arguments.of("no Content-Type", new Request("POST", "/meetings", null, valid.bytes()), 415, null),
                Arguments.of(
                        "malformed Content-Type",
                        new Request("POST", "/meetings", "application/", valid.bytes()),
                        415,
                        null),
                Arguments.of(
                        "JSON sent as text/plain",
                        new Request("POST", "/meetings", "text/plain", valid.bytes()),
                        415,
                        null),
                Arguments.of(
                        "JSON sent as application/*",
                        new Request("POST", "/meetings", "application/*", valid.bytes()),
                        415,
                        null),
                Arguments.of("JSON sent as */*", new Request("POST", "/meetings", "*/*", valid.bytes()), 415, null),
                Arguments.of(
                        "JSON sent as text/*", new Request("POST", "/meetings", "text/*", valid.bytes()), 415, null));
    }

    static Stream<Arguments> batches() {
        return Stream.of(
                batch("batch of 1,001 empty objects", array("{}", 1_001), "body"),
                batch("batch of 100,000 empty objects", array("{}", 100_000), "body"),
                batch("batch of 8 MB of empty objects", array("{}", 2_700_000), "body"),
                batch("batch that is an object", "{}", "body"),
                batch("batch with trailing garbage", "[" + meeting().json() + "] ]", "body"),
                batch("batch nested 3,000 arrays deep", nested(3_000), "body"),
                batch("batch element a string", "[\"x\"]", "[0]"),
                batch(
                        "batch element with a NUL title",
                        "[" + meeting().text("title", "\\u0000").json() + "]",
                        "[0].title"),
                batch(
                        "batch element with a duplicate key",
                        "[" + meeting().json() + "," + meeting().json().replace("{", "{\"title\":\"a\",") + "]",
                        "[1].title"));
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                list("from in year +300000", "from=%2B300000-01-01T00:00:00Z", "from"),
                list("to in year -999999999", "to=-999999999-01-01T00:00:00Z", "to"),
                list("from in year 0", "from=0000-01-01T00:00:00Z", "from"),
                list("page past int overflow", "page=21474837&size=100", "page"),
                list("page of nine digits", "page=999999999", "page"),
                list("page given twice", "page=0&page=1", "page"),
                list("from given twice, the same", "from=2030-01-01T00:00:00Z&from=2030-01-01T00:00:00Z", "from"),
                Arguments.of(
                        "status given twice",
                        new Request("GET", "/reminders?status=FAILED&status=DELIVERED", null, null),
                        400,
                        "status"),
                list("page with a plus sign", "page=%2B1", "page"),
                list("page NaN", "page=NaN", "page"),
                list("size as 1e2", "size=1e2", "size"),
                list("size with NUL", "size=1%00", "size"),
                list("from of 3,000 characters", "from=" + "9".repeat(3_000), "from"));
    }

    static Stream<Arguments> replaces() {
        return Stream.of(
                put("replace with a control character in the title", meeting().text("title", "a\\u0007"), "title"),
                put(
                        "replace moving the start before 2000",
                        meeting().text("startsAt", "1999-12-31T23:59:59Z"),
                        "startsAt"),
                put("replace with a duplicate key", meeting().json().replace("{", "{\"title\":\"x\","), "title"),
                put("replace with port 65536", meeting().text("webhookUrl", "http://127.0.0.1:65536/"), "webhookUrl"));
    }

    static Stream<Arguments> patches() {
        return Stream.of(
                patch("patch with a control character in the title", "{\"title\":\"a\\u0007\"}", "title"),
                patch("patch removing the title", "{\"title\":null}", "title"),
                patch("patch removing the start", "{\"startsAt\":null}", "startsAt"),
                patch("patch with startsAt as a number", "{\"startsAt\":1795424100000}", "startsAt"),
                patch("patch with startsAt in year 10000", "{\"startsAt\":\"+10000-01-01T00:00:00Z\"}", "startsAt"),
                patch("patch with an unknown field", "{\"colour\":\"red\"}", "colour"),
                patch("patch with a duplicate key", "{\"title\":\"a\",\"title\":\"b\"}", "title"),
                patch("patch with remindBefore element null", "{\"remindBefore\":[null]}", "remindBefore[0]"),
                patch(
                        "patch with timeZone of 10,000 characters",
                        "{\"timeZone\":\"" + "A".repeat(10_000) + "\"}",
                        "timeZone"),
                patch("patch that is an array", "[{\"title\":\"a\"}]", "body"),
                patch("patch that is a string", "\"title\"", "body"),
                patch("patch that is null", "null", "body"),
                patch("patch that is empty", "", "body"),
                patch("patch nested 3,000 arrays deep", "{\"title\":" + nested(3_000) + "}", "body"),
                Arguments.of(
                        "patch sent as application/json",
                        new Request("PATCH", "/meetings/{id}", JSON, "{}".getBytes(StandardCharsets.UTF_8)),
                        415,
                        null),
                Arguments.of(
                        "patch without a Content-Type",
                        new Request("PATCH", "/meetings/{id}", null, "{}".getBytes(StandardCharsets.UTF_8)),
                        415,
                        null));
    }

    static Stream<Arguments> recurrences() {
        return Stream.of(
                post("recurrence finer than hourly", meeting().text("recurrence", "FREQ=MINUTELY"), "recurrence"),
                post(
                        "recurrence with BYMINUTE",
                        meeting().text("recurrence", "FREQ=HOURLY;BYMINUTE=0,30"),
                        "recurrence"),
                post("recurrence that is not a rule", meeting().text("recurrence", "every monday"), "recurrence"),
                post("recurrence empty", meeting().text("recurrence", ""), "recurrence"),
                post(
                        "recurrence of 10,000 characters",
                        meeting().text("recurrence", "FREQ=DAILY;" + "X".repeat(10_000)),
                        "recurrence"),
                post("recurrence with a NUL", meeting().text("recurrence", "FREQ=DAILY\\u0000"), "recurrence"),
                post(
                        "recurrence with a line feed",
                        meeting().text("recurrence", "FREQ=DAILY\\nBYDAY=MO"),
                        "recurrence"),
                post("recurrence as a number", meeting().raw("recurrence", "7"), "recurrence"),
                post("recurrence as an object", meeting().raw("recurrence", "{}"), "recurrence"),
                post(
                        "recurrence with COUNT and UNTIL",
                        meeting().text("recurrence", "FREQ=DAILY;COUNT=2;UNTIL=20300101T000000Z"),
                        "recurrence"),
                post(
                        "recurrence that never occurs",
                        meeting().text("recurrence", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"),
                        "recurrence"),
                post(
                        "recurrence whose BYSETPOS no week has",
                        meeting().text("recurrence", "FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2"),
                        "recurrence"),
                post(
                        "recurrence whose BYSETPOS no month has",
                        meeting().text("recurrence", "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6"),
                        "recurrence"),
                post(
                        "recurrence with BYSETPOS beyond 366",
                        meeting().text("recurrence", "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR=9,10;BYSETPOS=400"),
                        "recurrence"),
                post(
                        "recurrence in the Julian calendar (RFC 7529's RSCALE)",
                        meeting().text("recurrence", "FREQ=WEEKLY;RSCALE=JULIAN"),
                        "recurrence"),
                post(
                        "recurrence with RFC 7529's SKIP",
                        meeting().text("recurrence", "FREQ=MONTHLY;BYMONTHDAY=31;RSCALE=GREGORIAN;SKIP=BACKWARD"),
                        "recurrence"),
                post(
                        "recurrence with COUNT 2,000,000,000",
                        meeting().text("recurrence", "FREQ=HOURLY;COUNT=2000000000"),
                        "recurrence"),
                post(
                        "recurrence with INTERVAL 2^31-1",
                        meeting().text("recurrence", "FREQ=HOURLY;INTERVAL=2147483647"),
                        "recurrence"),
                post(
                        "recurrence with INTERVAL 2^31",
                        meeting().text("recurrence", "FREQ=YEARLY;INTERVAL=2147483648"),
                        "recurrence"),
                post(
                        "recurrence with a part of lib-recur's own",
                        meeting().text("recurrence", "FREQ=YEARLY;_BYMONTH_FILTER=2"),
                        "recurrence"),
                post(
                        "recurrence of 498 characters in RSCALE, longer once spelled out",
                        meeting().text("recurrence", "FREQ=YEARLY;RSCALE=GREGORIAN;BYYEARDAY=" + numbers(1, 142)),
                        "recurrence"),
                post(
                        "recurrence with UNTIL in year 99999",
                        meeting().text("recurrence", "FREQ=DAILY;UNTIL=999991231T000000Z"),
                        "recurrence"),
                post(
                        "cancelledOccurrences as a string",
                        meeting().text("cancelledOccurrences", "2030-01-01T00:00:00Z"),
                        "cancelledOccurrences"),
                post(
                        "cancelledOccurrences element null",
                        meeting().raw("cancelledOccurrences", "[null]"),
                        "cancelledOccurrences[0]"),
                post(
                        "cancelledOccurrences element in year +294277",
                        meeting().raw("cancelledOccurrences", "[\"+294277-01-01T00:00:00Z\"]"),
                        "cancelledOccurrences[0]"),
                post(
                        "cancelledOccurrences of 1,001",
                        meeting().raw("cancelledOccurrences", array("\"2030-01-01T00:00:00Z\"", 1_001)),
                        "cancelledOccurrences"),
                patch("patch with a recurrence finer than hourly", "{\"recurrence\":\"FREQ=SECONDLY\"}", "recurrence"));
    }

    /** The whole numbers from {@code first} to {@code last}, comma-separated. */
    private static String numbers(int first, int last) {
        return java.util.stream.IntStream.rangeClosed(first, last)
                .mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(","));
    }

    private static Arguments patch(String name, String body, String field) {
        return Arguments.of(
                name,
                new Request(
                        "PATCH", "/meetings/{id}", MeetingResource.MERGE_PATCH, body.getBytes(StandardCharsets.UTF_8)),
                400,
                field);
    }

    private static Arguments webhook(String name, String url) {
        return post(name, meeting().text("webhookUrl", url), "webhookUrl");
    }

    private static Arguments post(String name, JsonText body, String field) {
        return post(name, body.json(), field);
    }

    private static Arguments post(String name, String body, String field) {
        return post(name, body.getBytes(StandardCharsets.UTF_8), field);
    }

    private static Arguments post(String name, byte[] body, String field) {
        return Arguments.of(name, new Request("POST", "/meetings", JSON, body), 400, field);
    }

    private static Arguments put(String name, JsonText body, String field) {
        return put(name, body.json(), field);
    }

    private static Arguments put(String name, String body, String field) {
        return Arguments.of(
                name, new Request("PUT", "/meetings/{id}", JSON, body.getBytes(StandardCharsets.UTF_8)), 400, field);
    }

    private static Arguments batch(String name, String body, String field) {
        return Arguments.of(
                name, new Request("POST", "/meetings/batch", JSON, body.getBytes(StandardCharsets.UTF_8)), 400, field);
    }

    private static Arguments list(String name, String query, String field) {
        return Arguments.of(name, new Request("GET", "/meetings?" + query, null, null), 400, field);
    }

    static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    static String array(String element, int count) {
        return "[" + String.join(",", Collections.nCopies(count, element)) + "]";
    }
}
