package com.meetingreminders.meeting;

import com.meetingreminders.notify.WebhookAllowList;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The URL's host is on the operator's allow-list ({@link WebhookAllowList}); null passes, and so does a string that is
 * no URL at all, which {@code @URL} reports.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = AllowedWebhookHost.Validator.class)
public @interface AllowedWebhookHost {

    String message() default "must point at a host the operator allows (reminders.webhook.allowed-hosts)";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** A bean, so that it gets the allow-list the configuration makes. */
    @ApplicationScoped
    class Validator implements ConstraintValidator<AllowedWebhookHost, String> {

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
                URI target = new URI(value);
                return target.getHost() == null || allowList.allows(target);
            } catch (URISyntaxException notAUrl) {
                return true;
            }
        }
    }
}
