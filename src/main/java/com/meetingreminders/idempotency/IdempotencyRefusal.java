package com.meetingreminders.idempotency;

import com.meetingreminders.http.Problem;
import java.util.OptionalLong;

/** An Idempotency-Key the service cannot honour now; nothing was created. ProblemMappers answers it. */
public final class IdempotencyRefusal extends RuntimeException {

    private final Problem problem;
    private final OptionalLong retryAfterSeconds;

    private IdempotencyRefusal(Problem problem, OptionalLong retryAfterSeconds) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
        this.retryAfterSeconds = retryAfterSeconds;
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
                OptionalLong.of(1));
    }

    static IdempotencyRefusal reused() {
        return new IdempotencyRefusal(
                new Problem(
                        "/problems/idempotency-key-reused",
                        "Idempotency-Key reused",
                        422,
                        "This Idempotency-Key came with another request within 24 hours; a new request needs a new key.",
                        null),
                OptionalLong.empty());
    }

    public Problem problem() {
        return problem;
    }

    public OptionalLong retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
