package com.meetingreminders.support;

import static org.assertj.core.api.Assertions.assertThat;

/** What every error answer must be: problem+json that carries no internals. */
public final class Problems {

    public static final String MEDIA_TYPE = "application/problem+json";

    private Problems() {}

    /** No stack trace, class name, SQL or Redis command in the body. */
    public static void assertNoInternals(String body) {
        assertThat(body)
                .doesNotContain(
                        "Exception", "at com.", "at org.", "select ", "com.fasterxml", "EVALSHA", "\"stack", "java.");
    }
}
