package com.meetingreminders.meeting;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.Database;
import com.meetingreminders.support.JsonText;
import com.meetingreminders.support.RawHttp;
import io.quarkus.logging.Log;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A batch costs what it is worth: its length is checked before any meeting in it is read, and its answer lists at most
 * 100 errors. Times are logged for the record, never asserted: what is asserted is that the work is bounded.
 */
@QuarkusTest
class BatchCostTest {

    private static final String TOO_LONG = "must hold 1 to 1,000 meetings";

    @Test
    void readsNothingPastTheThousandAndFirstMeeting() {
        // Whatever read past element 1,001 would meet the garbage and call the body malformed instead.
        String body = "[" + String.join(",", Collections.nCopies(1_001, "{}")) + ", this is not JSON at all";

        RawHttp.Answer answer = post(body);

        assertThat(answer.status()).isEqualTo(400);
        assertThat(JsonPath.from(answer.body()).getList("errors.message")).containsExactly(TOO_LONG);
    }

    @Test
    void listsAtMostAHundredErrorsAndCountsTheRest() {
        long before = Database.countMeetings();
        String blank = JsonText.meeting().text("title", " ").json();

        RawHttp.Answer answer = post("[" + String.join(",", Collections.nCopies(1_000, blank)) + "]");

        assertThat(answer.status()).isEqualTo(400);
        JsonPath problem = JsonPath.from(answer.body());
        assertThat(problem.getList("errors")).hasSize(100);
        assertThat(problem.getInt("moreErrors")).isEqualTo(900);
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void refusesEightMegabytesOfEmptyMeetingsWhileAnsweringOthers() {
        String body = "[" + String.join(",", Collections.nCopies(2_700_000, "{}")) + "]";
        long smallStarted = System.nanoTime();
        RawHttp.Answer small = RawHttp.send(baseUrl(), new RawHttp.Request("GET", "/meetings?size=1", null, null));
        long smallMillis = (System.nanoTime() - smallStarted) / 1_000_000;

        long started = System.nanoTime();
        CompletableFuture<RawHttp.Answer> big = CompletableFuture.supplyAsync(() -> post(body));
        RawHttp.Answer meanwhile = RawHttp.send(baseUrl(), new RawHttp.Request("GET", "/meetings?size=1", null, null));
        RawHttp.Answer refused = big.join();
        long bigMillis = (System.nanoTime() - started) / 1_000_000;

        assertThat(small.status()).isEqualTo(200);
        assertThat(meanwhile.status()).isEqualTo(200);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(JsonPath.from(refused.body()).getList("errors.message")).containsExactly(TOO_LONG);
        Log.infof(
                "8 MB batch of empty meetings answered in %d ms (upload included); a small list in %d ms",
                bigMillis, smallMillis);
    }

    @Test
    void boundsTheCostOfAThousandMeetingsFullOfBadAddresses() {
        String attendees = "[" + String.join(",", Collections.nCopies(500, "\"x\"")) + "]";
        String element = JsonText.meeting().raw("attendees", attendees).json();
        String body = "[" + String.join(",", Collections.nCopies(1_000, element)) + "]";

        long started = System.nanoTime();
        RawHttp.Answer answer = post(body);
        long millis = (System.nanoTime() - started) / 1_000_000;

        JsonPath problem = JsonPath.from(answer.body());
        assertThat(answer.status()).isEqualTo(400);
        assertThat(problem.getList("errors")).hasSize(100);
        // 999 errors a meeting (500 addresses, 499 repeats): counting stops in the eleventh.
        assertThat(problem.getInt("moreErrors")).isEqualTo(999 * 11 - 100);
        assertThat(problem.getString("detail")).contains("meetings from [11] on were not checked");
        Log.infof(
                "Batch of 1,000 meetings with 500 bad addresses each (%d bytes) answered in %d ms",
                body.length(), millis);
    }

    private static RawHttp.Answer post(String body) {
        return RawHttp.send(
                baseUrl(),
                new RawHttp.Request(
                        "POST", "/meetings/batch", HostileInputs.JSON, body.getBytes(StandardCharsets.UTF_8)));
    }

    private static String baseUrl() {
        return RestAssured.baseURI + ":" + RestAssured.port;
    }
}
