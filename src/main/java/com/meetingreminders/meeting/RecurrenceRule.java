package com.meetingreminders.meeting;

import com.meetingreminders.series.InvalidSeries;
import com.meetingreminders.series.SeriesRule;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The string is an RRULE the service takes (see {@link SeriesRule}); the message says what is wrong. Null passes. */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = RecurrenceRule.Validator.class)
public @interface RecurrenceRule {

    String message() default "must be an RFC 5545 RRULE, such as FREQ=WEEKLY;BYDAY=MO";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<RecurrenceRule, String> {
        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            try {
                SeriesRule.parse(value);
                return true;
            } catch (InvalidSeries e) {
                context.disableDefaultConstraintViolation();
                context.buildConstraintViolationWithTemplate(e.getMessage()).addConstraintViolation();
                return false;
            }
        }
    }
}
