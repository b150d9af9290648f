package com.meetingreminders.meeting;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.DefaultValue;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * The query of GET /meetings: meetings starting in [from, to), a page at a time. Parameters arrive as text and are
 * checked here, so that a malformed one is a 400 naming it rather than JAX-RS's 404.
 */
@MeetingQuery.ToAfterFrom
public class MeetingQuery {

    /** Far enough for any meeting, near enough for PostgreSQL's timestamptz. */
    private static final Instant LATEST = Instant.parse("9999-12-31T00:00:00Z");

    @RestQuery
    @IsoDateTime
    @Parameter(description = "earliest start, inclusive; ISO-8601 date-time with offset (encode + as %2B)")
    String from;

    @RestQuery
    @IsoDateTime
    @Parameter(description = "latest start, exclusive; ISO-8601 date-time with offset (encode + as %2B)")
    String to;

    @RestQuery
    @DefaultValue("0")
    @Pattern(regexp = "\\d{1,9}", message = "must be a whole number, 0 or more")
    @Parameter(description = "page number, from 0")
    String page;

    @RestQuery
    @DefaultValue("20")
    @Pattern(regexp = "100|[1-9]\\d?", message = "must be a whole number from 1 to 100")
    @Parameter(description = "meetings per page, 1 to 100")
    String size;

    /** When both bounds are given, {@code to} is after {@code from}; reported on {@code to}, the one to change. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @Constraint(validatedBy = ToAfterFrom.Validator.class)
    public @interface ToAfterFrom {

        String message() default "must be after from";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        class Validator implements ConstraintValidator<ToAfterFrom, MeetingQuery> {
            @Override
            public boolean isValid(MeetingQuery query, ConstraintValidatorContext context) {
                OffsetDateTime start = query.from == null ? null : IsoDateTime.Validator.parse(query.from);
                OffsetDateTime end = query.to == null ? null : IsoDateTime.Validator.parse(query.to);
                if (start == null || end == null || start.isBefore(end)) {
                    return true;
                }
                context.disableDefaultConstraintViolation();
                context.buildConstraintViolationWithTemplate(context.getDefaultConstraintMessageTemplate())
                        .addPropertyNode("to")
                        .addConstraintViolation();
                return false;
            }
        }
    }

    Instant fromOrEarliest() {
        return from == null ? Instant.EPOCH : IsoDateTime.Validator.parse(from).toInstant();
    }

    Instant toOrLatest() {
        return to == null ? LATEST : IsoDateTime.Validator.parse(to).toInstant();
    }

    int page() {
        return Integer.parseInt(page);
    }

    int size() {
        return Integer.parseInt(size);
    }
}
