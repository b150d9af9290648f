package com.meetingreminders.http;

import java.util.Map;

/**
 * A refusal that is an answer, not a fault: its {@link Problem} and headers go to the caller as they are. Each feature
 * throws its own kind; {@link ProblemMappers} answers them all without knowing one.
 */
public abstract class ProblemException extends RuntimeException {

    private final transient Problem problem;
    private final transient Map<String, Object> headers;

    /** {@code headers} go on the answer beside the problem, such as Retry-After. */
    protected ProblemException(Problem problem, Map<String, Object> headers) {
        // An expected answer: no stack trace to fill in.
        super(problem.detail(), null, false, false);
        this.problem = problem;
        this.headers = Map.copyOf(headers);
    }

    protected ProblemException(Problem problem) {
        this(problem, Map.of());
    }

    public Problem problem() {
        return problem;
    }

    public Map<String, Object> headers() {
        return headers;
    }
}
