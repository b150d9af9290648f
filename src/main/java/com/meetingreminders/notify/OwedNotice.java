package com.meetingreminders.notify;

import java.util.Optional;

/** A failure notice this replica has leased and now sends: to whom the stream event goes, and where the POST goes. */
record OwedNotice(long reminderId, String owner, Optional<String> failureWebhookUrl, FailureNotice notice) {}
