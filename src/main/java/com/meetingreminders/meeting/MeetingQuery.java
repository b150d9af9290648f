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
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * The query of GET /meetings: meetings starting in [from, to), a page at a time (and of GET /reminders, by send time). Parameters arrive as text and are
 * checked here, so that a malformed one is a 400 naming it rather than JAX-RS's 404.
 */
@MeetingQuery.ToAfterFrom
public class MeetingQuery {

    /** Far enough for any meeting, near enough for PostgreSQL's timestamptz. */
    private static final Instant LATEST = Instant.parse("9999-12-31T00:00:00Z");

    @RestQuery
    @IsoDateTime
    @Parameter(
            description =
                    "earliest start (send time for reminders), inclusive; ISO-8601 date-time with offset (encode + as %2B)")
    String from;

    @RestQuery
    @IsoDateTime
    @Parameter(
            description =
                    "latest start (send time for reminders), exclusive; ISO-8601 date-time with offset (encode + as %2B)")
    String to;

    @RestQuery
    @DefaultValue("0")
    // Bounded, so that page * size fits an int: no one pages through 100 million meetings.
    @Pattern(regexp = "1000000|\\d{1,6}", message = "must be a whole number from 0 to 1,000,000")
    @Parameter(description = "page number, from 0 to 1,000,000")
    String page;

    @RestQuery
    @DefaultValue("20")
    @Pattern(regexp = "100|[1-9]\\d?", message = "must be a whole number from 1 to 100")
    @Parameter(description = "items per page, 1 to 100")
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

    public Instant fromOrEarliest() {
        return from == null ? Instant.EPOCH : wholeMillisFrom(IsoDateTime.Validator.parse(from));
    }

    public Instant toOrLatest() {
        return to == null ? LATEST : wholeMillisFrom(IsoDateTime.Validator.parse(to));
    }

    /** The bounds as given, for a window whose defaults depend on the meeting (its occurrences). */
    Optional<Instant> fromGiven() {
        return from == null ? Optional.empty() : Optional.of(fromOrEarliest());
    }

    Optional<Instant> toGiven() {
        return to == null ? Optional.empty() : Optional.of(toOrLatest());
    }

    /**
     * The first whole millisecond at or after the instant: starts are whole milliseconds, so comparing with it gives
     * the same answer as comparing with the instant itself, for from (inclusive) and to (exclusive) alike.
     */
    private static Instant wholeMillisFrom(OffsetDateTime bound) {
        Instant instant = bound.toInstant();
        Instant truncated = instant.truncatedTo(ChronoUnit.MILLIS);
        return truncated.equals(instant) ? instant : truncated.plusMillis(1);
    }

    public int page() {
        return Integer.parseInt(page);
    }

    public int size() {
        return Integer.parseInt(size);
    }
}
