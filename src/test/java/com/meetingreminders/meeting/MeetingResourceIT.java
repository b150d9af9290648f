package com.meetingreminders.meeting;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The REST contract again, against the packaged application. */
@QuarkusIntegrationTest
class MeetingResourceIT extends MeetingResourceTest {}
