package com.meetingreminders.meeting;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The string is an ISO-8601 date-time with an offset, such as {@code 2026-11-23T09:00:00+08:00}, in the years 1 to
 * 9999 (UTC): beyond them no meeting starts, and the database's timestamps end. Null passes.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = IsoDateTime.Validator.class)
public @interface IsoDateTime {

    String message() default
            "must be an ISO-8601 date-time with offset in the years 1 to 9999, such as 2026-11-23T09:00:00Z";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<IsoDateTime, String> {

        private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
        /** The first instant past the year 9999: RFC 3339 writes no later one. */
        static final Instant END = Instant.parse("+10000-01-01T00:00:00Z");

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || parse(value) != null;
        }

        /** The date-time, or null if the text is not one or lies outside the years 1 to 9999. */
        static OffsetDateTime parse(String text) {
            try {
                OffsetDateTime parsed = OffsetDateTime.parse(text);
                return inRange(parsed.toInstant()) ? parsed : null;
            } catch (DateTimeParseException e) {
                return null;
            }
        }

        /** Whether the instant lies in the years 1 to 9999 (UTC). */
        static boolean inRange(Instant instant) {
            return !instant.isBefore(EARLIEST) && instant.isBefore(END);
        }
    }
}
