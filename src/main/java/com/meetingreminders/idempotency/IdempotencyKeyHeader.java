package com.meetingreminders.idempotency;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import jakarta.ws.rs.core.HttpHeaders;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

/**
 * An {@code Idempotency-Key} header: absent, or 1 to 255 printable ASCII characters. A broken one is reported under
 * the header's name, which is what the client sent, rather than the Java parameter that carries it.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = IdempotencyKeyHeader.Validator.class)
public @interface IdempotencyKeyHeader {

    String message() default "must be sent once, as 1 to 255 printable ASCII characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** A bean, so that it reads the header as sent. */
    @ApplicationScoped
    class Validator implements ConstraintValidator<IdempotencyKeyHeader, String> {

        static final int MAX_LENGTH = 255;

        private final HttpHeaders request;

        Validator(HttpHeaders request) {
            this.request = request;
        }

        /**
         * Judges the header as sent rather than the parameter's value: RESTEasy Reactive hands an empty header over as
         * none, and of several only the first, and either would silently leave a create unprotected.
         */
        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            List<String> sent = request.getRequestHeader(IdempotentCreates.HEADER);
            if (sent == null || sent.isEmpty() || (sent.size() == 1 && isWellFormed(sent.get(0)))) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(context.getDefaultConstraintMessageTemplate())
                    .addPropertyNode(IdempotentCreates.HEADER)
                    .addConstraintViolation();
            return false;
        }

        static boolean isWellFormed(String key) {
            return !key.isEmpty() && key.length() <= MAX_LENGTH && key.chars().allMatch(c -> c >= 0x20 && c <= 0x7E);
        }
    }
}
