package com.meetingreminders;

import com.meetingreminders.admin.DeliveryAdminResource;
import com.meetingreminders.http.Problem;
import com.meetingreminders.meeting.MeetingBatch;
import com.meetingreminders.meeting.MeetingBatchResource;
import com.meetingreminders.meeting.MeetingPage;
import com.meetingreminders.meeting.MeetingRequest;
import com.meetingreminders.meeting.MeetingResource;
import com.meetingreminders.meeting.MeetingView;
import com.meetingreminders.meeting.OccurrenceResource;
import com.meetingreminders.meeting.ReminderListItem;
import com.meetingreminders.meeting.ReminderListResource;
import com.meetingreminders.meeting.ReminderResource;
import com.meetingreminders.meeting.ReminderView;
import com.meetingreminders.notify.FailureNotice;
import com.meetingreminders.notify.Notification;
import com.meetingreminders.notify.ReminderStreamResource;
import com.meetingreminders.signing.SigningSecretResource;
import com.meetingreminders.web.WebPage;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The types Jackson reads or writes by reflection, for a native image: Quarkus registers a resource method's declared
 * types itself, but not entities inside a {@code Response}, what an ObjectMapper writes directly (notifications,
 * failure notices, problems, the answers kept for Idempotency-Key) or records nested in them; nor a record that a query
 * builds with {@code select new} (a reminder as GET /reminders lists it). Also the resources, whose methods'
 * annotations {@code AllowedMethods} reads for Allow. The JVM build does not need it.
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
            Problem.FieldError.class,
            SigningSecretResource.class,
            DeliveryAdminResource.class,
            ReminderStreamResource.class,
            WebPage.class,
            OccurrenceResource.class,
            MeetingResource.class,
            ReminderResource.class,
            ReminderListResource.class,
            MeetingBatchResource.class
        })
final class NativeReflection {

    private NativeReflection() {}
}
