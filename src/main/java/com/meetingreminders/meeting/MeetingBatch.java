package com.meetingreminders.meeting;

import java.util.List;

/** The answer to POST /meetings/batch: the meetings created, in the order given. */
public record MeetingBatch(List<MeetingView> items) {}
