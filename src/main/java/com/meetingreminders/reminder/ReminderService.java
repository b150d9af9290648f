package com.meetingreminders.reminder;

import com.meetingreminders.meeting.Meeting;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Reads reminders for the API. */
@ApplicationScoped
@Transactional
public class ReminderService {

    /** The meeting's reminders by send time, or empty if there is no such meeting. */
    public Optional<List<ReminderView>> listForMeeting(UUID meetingId) {
        return Meeting.<Meeting>findByIdOptional(meetingId)
                .map(meeting -> meeting.reminders.stream().map(ReminderView::of).toList());
    }
}
