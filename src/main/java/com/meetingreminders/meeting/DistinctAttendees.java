package com.meetingreminders.meeting;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * No address appears twice, compared without regard to case: {@code Ann@Example.com} and {@code ann@example.com} are
 * one mailbox in practice, and would get every reminder twice. Each repeat is reported at its own index, naming the
 * first. Null passes, and so do null elements, which {@code @NotBlank} reports.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = DistinctAttendees.Validator.class)
public @interface DistinctAttendees {

    String message() default "must not repeat an address";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<DistinctAttendees, List<String>> {
        @Override
        public boolean isValid(List<String> addresses, ConstraintValidatorContext context) {
            if (addresses == null) {
                return true;
            }
            Map<String, Integer> first = new HashMap<>();
            boolean valid = true;
            for (int i = 0; i < addresses.size(); i++) {
                String address = addresses.get(i);
                if (address == null) {
                    continue;
                }
                Integer earlier = first.putIfAbsent(address.toLowerCase(Locale.ROOT), i);
                if (earlier != null) {
                    if (valid) {
                        context.disableDefaultConstraintViolation();
                        valid = false;
                    }
                    context.buildConstraintViolationWithTemplate("repeats attendees[" + earlier + "]")
                            .addBeanNode()
                            .inIterable()
                            .atIndex(i)
                            .addConstraintViolation();
                }
            }
            return valid;
        }
    }
}
