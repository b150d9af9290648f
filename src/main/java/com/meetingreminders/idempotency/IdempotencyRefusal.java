package com.meetingreminders.idempotency;

import com.meetingreminders.problem.Problem;
import java.time.Duration;
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

    static IdempotencyRefusal exhausted(int max, Duration untilOneExpires) {
        return new IdempotencyRefusal(
                new Problem(
                        "/problems/idempotency-keys-exhausted",
                        "Too many Idempotency-Keys",
                        429,
                        "You used " + max + " Idempotency-Keys within 24 hours; a new one is taken once the oldest"
                                + " expires.",
                        null),
                OptionalLong.of(Math.max(1, untilOneExpires.toSeconds() + 1)));
    }

    public Problem problem() {
        return problem;
    }

    public OptionalLong retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
