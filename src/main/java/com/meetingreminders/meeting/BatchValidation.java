package com.meetingreminders.meeting;

import com.meetingreminders.http.InvalidBody;
import com.meetingreminders.http.Problem;
import com.meetingreminders.http.ProblemMappers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Validator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Checks a batch meeting by meeting, as POST /meetings checks one, keeping the first {@link #LISTED} errors and
 * counting the rest. Counting stops after {@link #COUNTED} errors: a batch that broken is refused without checking
 * the meetings after the one that reached it, which the answer's detail names, so that no batch costs more than that
 * many errors to report.
 */
@ApplicationScoped
class BatchValidation {

    static final int LISTED = 100;
    static final int COUNTED = 10_000;

    private final Validator validator;

    BatchValidation(Validator validator) {
        this.validator = validator;
    }

    /** Returns when every meeting keeps every rule; otherwise {@link InvalidBody} with what it found. */
    void check(List<MeetingRequest> batch) {
        List<Problem.FieldError> listed = new ArrayList<>();
        int found = 0;
        int checked = 0;
        while (checked < batch.size() && found < COUNTED) {
            List<Problem.FieldError> errors = errorsOf(checked, batch.get(checked));
            found += errors.size();
            listed.addAll(errors.subList(0, Math.min(errors.size(), LISTED - listed.size())));
            checked++;
        }
        if (found == 0) {
            return;
        }
        String detail = checked == batch.size()
                ? "The batch breaks " + found + " rule(s); nothing was stored."
                : "The batch breaks at least " + found + " rules; meetings from [" + checked
                        + "] on were not checked, and nothing was stored.";
        throw new InvalidBody(detail, listed, found - listed.size());
    }

    private List<Problem.FieldError> errorsOf(int index, MeetingRequest meeting) {
        if (meeting == null) {
            return List.of(new Problem.FieldError("[" + index + "]", "must be a JSON object"));
        }
        return validator.validate(meeting, MeetingRequest.OnCreate.class).stream()
                .map(violation -> {
                    String field = ProblemMappers.fieldOf(violation.getPropertyPath());
                    return new Problem.FieldError(
                            "[" + index + "]" + (field.isEmpty() ? "" : "." + field), violation.getMessage());
                })
                .sorted(Comparator.comparing(Problem.FieldError::field).thenComparing(Problem.FieldError::message))
                .toList();
    }
}
