package com.meetingreminders.meeting;

import com.meetingreminders.notify.WebhookTarget;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Future;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.validation.groups.Default;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraints.UniqueElements;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

/** The body of POST and PUT /meetings; optional fields left out take their defaults. */
public record MeetingRequest(
        @Schema(examples = "Weekly sync", maxLength = MAX_TITLE) @NotBlank @AtMostCharacters(MAX_TITLE) @PlainText
                String title,
        @Schema(
                        examples = "2026-11-23T09:00:00+08:00",
                        description =
                                "ISO-8601 instant with offset, from 2000-01-01 to ten years ahead; in the future on"
                                        + " POST; kept to the millisecond")
                @NotNull
                @Future(groups = OnCreate.class)
                @StartsInRange
                OffsetDateTime startsAt,
        @Schema(examples = "Asia/Shanghai", defaultValue = "UTC") @IanaTimeZone String timeZone,
        @Schema(
                        description = "ISO-8601 durations from PT0S to P30D in whole milliseconds; default [\"PT5M\"]",
                        maxItems = 10)
                @Size(max = 10)
                @UniqueElements(message = "must not repeat a duration")
                List<
                                @NotNull @DurationMin(message = "must not be negative")
                                @DurationMax(days = 30, message = "must be at most P30D") @WholeMillis Duration>
                        remindBefore,
        @Schema(
                        maxItems = 500,
                        description = "e-mail addresses, each at most 254 characters, none repeated (in any case)")
                @Size(max = 500)
                @DistinctAttendees
                List<@NotBlank @Email @Size(max = MAX_ADDRESS) @PlainText String> attendees,
        @Schema(examples = "https://hooks.example.com/reminders", maxLength = WebhookTarget.MAX_LENGTH) @WebhookUrl
                String webhookUrl,
        @Schema(
                        examples = "https://hooks.example.com/reminders/failed",
                        maxLength = WebhookTarget.MAX_LENGTH,
                        description = "Gets one signed POST when a reminder of this meeting ends FAILED")
                @WebhookUrl
                String failureWebhookUrl,
        @Schema(
                        examples = "FREQ=WEEKLY;BYDAY=MO",
                        maxLength = 500,
                        description = "RFC 5545 RRULE, with or without RRULE:; FREQ HOURLY or coarser; startsAt is the"
                                + " first occurrence; occurrences keep their local time in timeZone")
                @RecurrenceRule
                String recurrence,
        @Schema(
                        maxItems = MAX_CANCELLED,
                        description = "Occurrences, by their original start, that do not take place (EXDATE)")
                @Size(max = MAX_CANCELLED)
                List<@NotNull @StartsInRange OffsetDateTime> cancelledOccurrences) {

    /** Longest title, in characters: the column is {@code varchar(200)}. */
    static final int MAX_TITLE = 200;

    /** Most cancelled occurrences one series holds. */
    static final int MAX_CANCELLED = 1_000;

    /** RFC 5321's longest path, less its angle brackets. */
    static final int MAX_ADDRESS = 254;

    static final String DEFAULT_TIME_ZONE = "UTC";
    static final List<Duration> DEFAULT_REMIND_BEFORE = List.of(Duration.ofMinutes(5));

    /** Constraints that hold only when a meeting is created; the ones of {@link Default} hold too. */
    public interface OnCreate extends Default {}

    /** The meeting as it stands, as the body that would set it: the base a merge patch applies to. */
    static MeetingRequest of(Meeting meeting) {
        return new MeetingRequest(
                meeting.title,
                meeting.startsAt.atOffset(ZoneOffset.UTC),
                meeting.timeZone,
                meeting.remindBefore.stream().map(Duration::parse).toList(),
                List.copyOf(meeting.attendees),
                meeting.webhookUrl,
                meeting.failureWebhookUrl,
                meeting.recurrence,
                meeting.cancelledOccurrences.stream()
                        .map(at -> at.atOffset(ZoneOffset.UTC))
                        .toList());
    }

    Instant startsAtInstant() {
        return startsAt.toInstant().truncatedTo(ChronoUnit.MILLIS);
    }

    String timeZoneOrDefault() {
        return timeZone == null ? DEFAULT_TIME_ZONE : timeZone;
    }

    List<Duration> remindBeforeOrDefault() {
        return remindBefore == null ? DEFAULT_REMIND_BEFORE : remindBefore;
    }

    List<Instant> cancelledOccurrencesOrNone() {
        return cancelledOccurrences == null
                ? List.of()
                : cancelledOccurrences.stream()
                        .map(at -> at.toInstant().truncatedTo(ChronoUnit.MILLIS))
                        .distinct()
                        .sorted()
                        .toList();
    }

    List<String> attendeesOrNone() {
        return attendees == null ? List.of() : attendees;
    }
}
