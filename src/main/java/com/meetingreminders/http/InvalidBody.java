package com.meetingreminders.http;

import java.util.List;

/**
 * A body refused by a check of our own rather than by bean validation of the parameter: a batch counted before it is
 * bound, or checked meeting by meeting. Answered 400 like any broken rule: {@code errors} at most
 * {@link Problem#MAX_ERRORS}, {@code moreErrors} the count of the rest.
 */
public class InvalidBody extends ProblemException {

    public InvalidBody(String detail, List<Problem.FieldError> errors, int moreErrors) {
        super(problem(detail, List.copyOf(errors), moreErrors));
    }

    /** One rule the request breaks, in its body or its query, said as bean validation says it. */
    public InvalidBody(String field, String message) {
        this(Problem.brokenRules(1), List.of(new Problem.FieldError(field, message)), 0);
    }

    /** The same refusal of one meeting of a batch: its fields named under the meeting's index, as [3].recurrence. */
    public InvalidBody inMeeting(String index) {
        Problem refused = problem();
        List<Problem.FieldError> errors = refused.errors().stream()
                .map(error -> new Problem.FieldError(index + "." + error.field(), error.message()))
                .toList();
        return new InvalidBody(refused.detail(), errors, refused.moreErrors() == null ? 0 : refused.moreErrors());
    }

    private static Problem problem(String detail, List<Problem.FieldError> errors, int moreErrors) {
        Problem listed = Problem.invalidRequest(detail, errors);
        return moreErrors == 0
                ? listed
                : new Problem(
                        listed.type(),
                        listed.title(),
                        listed.status(),
                        listed.detail(),
                        listed.errors(),
                        moreErrors + (listed.moreErrors() == null ? 0 : listed.moreErrors()));
    }
}
