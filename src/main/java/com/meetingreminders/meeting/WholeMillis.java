package com.meetingreminders.meeting;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;

/**
 * The duration is a whole number of milliseconds, the unit of every send time and timer: a finer one would give a
 * reminder a send time that its timer cannot name, and it would never be sent. Null passes.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = WholeMillis.Validator.class)
public @interface WholeMillis {

    String message() default "must be a whole number of milliseconds, such as PT0.25S";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<WholeMillis, Duration> {
        @Override
        public boolean isValid(Duration value, ConstraintValidatorContext context) {
            return value == null || value.getNano() % 1_000_000 == 0;
        }
    }
}
