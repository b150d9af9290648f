package com.meetingreminders.limits;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.AtOnce;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A caller's requests a second, when many come at once: a replica counts those that come while a count is on its way
 * to Redis together, and together they get exactly as many through as they would one after another.
 */
@QuarkusTest
@TestProfile(RequestRateTest.TenASecond.class)
class RequestRateTest {

    static final int PER_SECOND = 10;

    public static class TenASecond implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("reminders.limits.requests-per-second", Integer.toString(PER_SECOND));
        }
    }

    @Test
    void requestsThatComeAtOnceGetASecondsWorthThroughAndOneMoreEachTenthOfASecond() {
        String caller = "rate-" + UUID.randomUUID();
        int requests = 80;
        // Another caller's requests first: the client's and the service's first requests are slow, and would come
        // one by one.
        AtOnce.calls(requests, i -> listMeetings("warm-up-" + UUID.randomUUID()));

        long started = System.nanoTime();
        List<Integer> answers = AtOnce.calls(requests, i -> listMeetings(caller));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        long through = answers.stream().filter(status -> status == 200).count();
        // A second's worth may come at once; after it, one each 1/PER_SECOND of a second, however the requests were
        // grouped.
        long mostThrough = PER_SECOND + took.toMillis() * PER_SECOND / 1_000 + 1;
        assertThat(through).isBetween((long) PER_SECOND, mostThrough);
        assertThat(answers).containsOnly(200, 429);
    }

    private static int listMeetings(String caller) {
        return given().header("Authorization", Tokens.bearer(caller))
                .get("/meetings")
                .statusCode();
    }
}
