package com.meetingreminders.notify;

/** A send the allow-list stopped before anything went out: the target is not the caller's to reach. */
class RefusedTarget extends DeliveryFailure {

    RefusedTarget(String message) {
        super(message);
    }
}
