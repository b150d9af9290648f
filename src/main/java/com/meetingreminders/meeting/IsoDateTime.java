package com.meetingreminders.meeting;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** The string is an ISO-8601 date-time with an offset, such as {@code 2026-11-23T09:00:00+08:00}; null passes. */
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = IsoDateTime.Validator.class)
public @interface IsoDateTime {

    String message() default "must be an ISO-8601 date-time with offset, such as 2026-11-23T09:00:00Z";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<IsoDateTime, String> {
        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || parse(value) != null;
        }

        /** The date-time, or null if the text is not one. */
        static OffsetDateTime parse(String text) {
            try {
                return OffsetDateTime.parse(text);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
    }
}
