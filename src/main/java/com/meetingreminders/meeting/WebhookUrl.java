package com.meetingreminders.meeting;

import com.meetingreminders.notify.WebhookAllowList;
import com.meetingreminders.notify.WebhookTarget;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An absolute http or https URL that {@link WebhookTarget} reads and whose host and port are on the operator's
 * allow-list ({@link WebhookAllowList}): the same reading as the check before each send, so that what is accepted
 * here is what can be sent. Null passes.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = WebhookUrl.Validator.class)
public @interface WebhookUrl {

    String message() default WebhookTarget.NOT_ALLOWED;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** A bean, so that it gets the allow-list the configuration makes. */
    @ApplicationScoped
    class Validator implements ConstraintValidator<WebhookUrl, String> {

        private final WebhookAllowList allowList;

        Validator(WebhookAllowList allowList) {
            this.allowList = allowList;
        }

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            try {
                return allowList.allows(WebhookTarget.parse(value));
            } catch (WebhookTarget.Invalid invalid) {
                context.disableDefaultConstraintViolation();
                context.buildConstraintViolationWithTemplate(invalid.getMessage())
                        .addConstraintViolation();
                return false;
            }
        }
    }
}
