package com.meetingreminders.meeting;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * A meeting starts from 2000-01-01T00:00Z to ten years from now: every send time and timer score derived from it then
 * fits the database, Redis and epoch milliseconds, and a typo in the year is caught rather than planned. Null passes.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = StartsInRange.Validator.class)
public @interface StartsInRange {

    String message() default "must be from 2000-01-01T00:00:00Z to ten years from now";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");

    int YEARS_AHEAD = 10;

    /** A bean, so that it reads the service's clock. */
    @ApplicationScoped
    class Validator implements ConstraintValidator<StartsInRange, OffsetDateTime> {

        private final Clock clock;

        Validator(Clock clock) {
            this.clock = clock;
        }

        @Override
        public boolean isValid(OffsetDateTime value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            Instant latest = clock.instant()
                    .atOffset(ZoneOffset.UTC)
                    .plusYears(YEARS_AHEAD)
                    .toInstant();
            Instant start = value.toInstant();
            return !start.isBefore(EARLIEST) && !start.isAfter(latest);
        }
    }
}
