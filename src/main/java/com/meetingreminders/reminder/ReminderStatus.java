package com.meetingreminders.reminder;

/** Where a reminder stands; only SCHEDULED reminders are ever sent. */
public enum ReminderStatus {
    SCHEDULED,
    DELIVERED,
    /** Every attempt failed. */
    FAILED,
    /** The meeting was rescheduled or deleted before the reminder went out. */
    CANCELLED,
    /** Its time had passed and the meeting had already started. */
    SKIPPED
}
