package com.meetingreminders.meeting;

import com.meetingreminders.reminder.ReminderStatus;
import jakarta.validation.constraints.Pattern;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestQuery;

/** The query of GET /reminders: reminders sent (or due) in [from, to), of one status or all, a page at a time. */
public class ReminderQuery extends MeetingQuery {

    @RestQuery
    @Pattern(
            regexp = "SCHEDULED|DELIVERED|FAILED|CANCELLED|SKIPPED",
            message = "must be one of SCHEDULED, DELIVERED, FAILED, CANCELLED, SKIPPED")
    @Parameter(description = "only reminders in this state: SCHEDULED, DELIVERED, FAILED, CANCELLED or SKIPPED")
    String status;

    Optional<ReminderStatus> statusOrAll() {
        return Optional.ofNullable(status).map(ReminderStatus::valueOf);
    }
}
