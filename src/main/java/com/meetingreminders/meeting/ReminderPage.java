package com.meetingreminders.meeting;

import java.util.List;

/** One page of GET /reminders, ordered by send time. */
public record ReminderPage(List<ReminderListItem> items, int page, int size, long total) {}
