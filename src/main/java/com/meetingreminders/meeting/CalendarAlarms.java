package com.meetingreminders.meeting;

import java.time.Duration;
import java.time.temporal.TemporalAmount;
import java.time.temporal.TemporalUnit;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VAlarm;
import net.fortuna.ical4j.model.property.Trigger;

/** An imported VALARM as the remindBefore it means: a TRIGGER relative to, and at or before, the start. */
final class CalendarAlarms {

    private CalendarAlarms() {}

    /** A VALARM's TRIGGER before the start, as the remindBefore it means. */
    static Duration remindBefore(VAlarm alarm) {
        Trigger trigger = alarm.<Trigger>getProperty(Property.TRIGGER)
                .orElseThrow(() -> CalendarValues.unreadable(Property.TRIGGER, "is required in every VALARM"));
        if (trigger.isAbsolute()) {
            throw CalendarValues.unreadable(
                    Property.TRIGGER, "must be relative to the start, such as -PT15M, not a date-time");
        }
        boolean relatedToEnd = trigger.getParameter(Parameter.RELATED)
                .map(Parameter::getValue)
                .filter("END"::equalsIgnoreCase)
                .isPresent();
        if (relatedToEnd) {
            throw CalendarValues.unreadable(
                    Property.TRIGGER, "must be related to the start (RELATED=START), not to the end");
        }
        Duration offset = exact(trigger.getDuration());
        if (!offset.isNegative() && !offset.isZero()) {
            throw CalendarValues.unreadable(Property.TRIGGER, "must be at or before the start, such as -PT15M");
        }
        return offset.negated();
    }

    /** A day in a trigger is 24 hours: the service reminds at an absolute time before the start. */
    private static Duration exact(TemporalAmount amount) {
        Duration total = Duration.ZERO;
        try {
            for (TemporalUnit unit : amount.getUnits()) {
                // A Period always lists years and months, which no iCalendar duration has.
                if (amount.get(unit) != 0) {
                    total = total.plus(Duration.of(amount.get(unit), unit));
                }
            }
        } catch (RuntimeException e) {
            throw CalendarValues.unreadable(
                    Property.TRIGGER, "must be a duration in weeks, days, hours, minutes or seconds");
        }
        return total;
    }
}
