package com.meetingreminders.idempotency;

import com.meetingreminders.http.Problem;
import com.meetingreminders.http.ProblemException;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.Map;

/** An Idempotency-Key the service cannot honour now; nothing was created. ProblemMappers answers it. */
public final class IdempotencyRefusal extends ProblemException {

    private IdempotencyRefusal(Problem problem, Map<String, Object> headers) {
        super(problem, headers);
    }

    /** A repeat while the first request with the key is still running: retrying shortly gets the first's answer. */
    static IdempotencyRefusal inUse() {
        return new IdempotencyRefusal(
                new Problem(
                        "/problems/idempotency-key-in-use",
                        "Idempotency-Key in use",
                        409,
                        "A request with this Idempotency-Key is still being processed; retry shortly to get its answer.",
                        null),
                Map.of(HttpHeaders.RETRY_AFTER, 1L));
    }

    static IdempotencyRefusal reused() {
        return new IdempotencyRefusal(
                new Problem(
                        "/problems/idempotency-key-reused",
                        "Idempotency-Key reused",
                        422,
                        "This Idempotency-Key came with another request within 24 hours; a new request needs a new key.",
                        null),
                Map.of());
    }
}
