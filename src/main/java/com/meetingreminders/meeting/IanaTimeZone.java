package com.meetingreminders.meeting;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The string is an IANA time-zone id such as {@code Asia/Shanghai} or {@code UTC}; null passes. */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = IanaTimeZone.Validator.class)
public @interface IanaTimeZone {

    String message() default "must be an IANA time-zone id, such as Europe/Paris or UTC";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<IanaTimeZone, String> {
        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            // ZoneId.of also takes offsets such as +08:00, which are not zones: the region list is the IANA database.
            return value == null || IanaZoneIds.isKnown(value);
        }
    }
}
