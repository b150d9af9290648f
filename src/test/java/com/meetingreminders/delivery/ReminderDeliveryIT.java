package com.meetingreminders.delivery;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** Delivery again, against the packaged application. */
@QuarkusIntegrationTest
class ReminderDeliveryIT extends ReminderDeliveryTest {}
