package com.meetingreminders.meeting;

import java.util.List;

/** One page of meetings ordered by start; {@code page} counts from 0 and {@code total} counts every match. */
public record MeetingPage(List<MeetingView> items, int page, int size, long total) {}
