package com.meetingreminders;

import com.meetingreminders.http.Problem;
import com.meetingreminders.meeting.MeetingBatch;
import com.meetingreminders.meeting.MeetingPage;
import com.meetingreminders.meeting.MeetingRequest;
import com.meetingreminders.meeting.MeetingView;
import com.meetingreminders.meeting.ReminderListItem;
import com.meetingreminders.meeting.ReminderView;
import com.meetingreminders.notify.FailureNotice;
import com.meetingreminders.notify.Notification;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The types Jackson reads or writes by reflection, for a native image: Quarkus registers a resource method's declared
 * types itself, but not entities inside a {@code Response}, what an ObjectMapper writes directly (notifications,
 * failure notices, problems, the answers kept for Idempotency-Key) or records nested in them; nor a record that a query
 * builds with {@code select new} (a reminder as GET /reminders lists it). The JVM build does not need it.
 */
@RegisterForReflection(
        targets = {
            MeetingRequest.class,
            MeetingView.class,
            MeetingView.ReminderState.class,
            MeetingPage.class,
            MeetingBatch.class,
            ReminderView.class,
            ReminderListItem.class,
            Notification.class,
            FailureNotice.class,
            Problem.class,
            Problem.FieldError.class
        })
final class NativeReflection {

    private NativeReflection() {}
}
