package com.meetingreminders.support;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every RestAssured request of every test that names no Authorization header carries a token of
 * {@link Tokens#DEFAULT_CALLER}, so that tests of other things need not say so. Registered twice through service
 * files: as a Quarkus callback for {@code @QuarkusTest} classes, whose RestAssured lives in Quarkus's class loader,
 * and as a JUnit extension (auto-detected: quarkus-junit5 turns detection on) for the tests of the packaged application.
 */
public class AuthenticatedByDefault implements BeforeAllCallback, QuarkusTestBeforeEachCallback {

    private static final Filter DEFAULT_TOKEN = (request, response, context) -> {
        if (!request.getHeaders().hasHeaderWithName("Authorization")) {
            request.header("Authorization", Tokens.bearer(Tokens.DEFAULT_CALLER));
        }
        return context.next(request, response);
    };

    @Override
    public void beforeAll(ExtensionContext context) {
        install();
    }

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        install();
    }

    /** For tests of authentication: from now to the next test, requests carry only the headers they name. */
    public static void suspend() {
        RestAssured.replaceFiltersWith(RestAssured.filters().stream()
                .filter(filter -> filter != DEFAULT_TOKEN)
                .toList());
    }

    private static void install() {
        if (!RestAssured.filters().contains(DEFAULT_TOKEN)) {
            List<Filter> filters = new java.util.ArrayList<>(RestAssured.filters());
            filters.add(DEFAULT_TOKEN);
            RestAssured.replaceFiltersWith(filters);
        }
    }
}
