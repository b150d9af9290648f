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
 * Text fit for a line of a header or a log: no control character (C0, DEL, C1), no line or paragraph separator
 * (U+2028, U+2029), no lone surrogate. A line break in a title would otherwise reach an e-mail's headers, a NUL cannot
 * be stored, and a lone surrogate cannot be written as UTF-8. Null passes.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = PlainText.Validator.class)
public @interface PlainText {

    String message() default "must not contain control characters, line breaks or lone surrogates";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<PlainText, String> {
        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || isPlain(value);
        }

        static boolean isPlain(String text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                    return false;
                }
                if (Character.isHighSurrogate(c)) {
                    if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                        return false;
                    }
                    i++;
                } else if (Character.isLowSurrogate(c)) {
                    return false;
                }
            }
            return true;
        }
    }
}
