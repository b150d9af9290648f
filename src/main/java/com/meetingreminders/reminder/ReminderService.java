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

    /** The meeting's reminders by send time, or empty if the owner has no such meeting. */
    public Optional<List<ReminderView>> listForMeeting(String owner, UUID meetingId) {
        return Meeting.findOwned(owner, meetingId)
                .map(meeting -> meeting.reminders.stream().map(ReminderView::of).toList());
    }
}
