package com.meetingreminders.meeting;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The text holds at most {@link #value()} characters, counted as Unicode code points: the unit of JSON Schema's
 * {@code maxLength} that the OpenAPI document publishes, and of PostgreSQL's {@code varchar(n)}. {@code @Size} counts
 * UTF-16 units instead, so it would refuse 101 emoji as over 100. A lone surrogate counts as one; {@link PlainText}
 * refuses it. Null passes.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = AtMostCharacters.Validator.class)
public @interface AtMostCharacters {

    int value();

    String message() default "must be at most {value} characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<AtMostCharacters, String> {
        private int most;

        @Override
        public void initialize(AtMostCharacters annotation) {
            most = annotation.value();
        }

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            // A string of at most `most` UTF-16 units cannot hold more code points; the count is for the rest.
            return value == null || value.length() <= most || value.codePointCount(0, value.length()) <= most;
        }
    }
}
