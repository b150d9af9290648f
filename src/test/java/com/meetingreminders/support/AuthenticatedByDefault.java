package com.meetingreminders.support;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.util.ArrayList;
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

    /**
     * Known by its class name, not by identity: after a Quarkus restart the filter installed by the other class loader's
     * copy of this class is still in RestAssured's list, and {@link #suspend()} must take that one out too.
     */
    static final class DefaultToken implements Filter {
        @Override
        public Response filter(
                FilterableRequestSpecification request,
                FilterableResponseSpecification response,
                FilterContext context) {
            if (!request.getHeaders().hasHeaderWithName("Authorization")) {
                request.header("Authorization", Tokens.bearer(Tokens.DEFAULT_CALLER));
            }
            return context.next(request, response);
        }
    }

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
                .filter(filter -> !isDefaultToken(filter))
                .toList());
    }

    private static void install() {
        if (RestAssured.filters().stream().noneMatch(AuthenticatedByDefault::isDefaultToken)) {
            List<Filter> filters = new ArrayList<>(RestAssured.filters());
            filters.add(new DefaultToken());
            RestAssured.replaceFiltersWith(filters);
        }
    }

    private static boolean isDefaultToken(Filter filter) {
        return filter.getClass().getName().equals(DefaultToken.class.getName());
    }
}
