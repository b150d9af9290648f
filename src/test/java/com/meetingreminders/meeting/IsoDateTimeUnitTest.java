package com.meetingreminders.meeting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The date-times a meeting may start at: ISO-8601 with an offset, in the years 1 to 9999 as UTC counts them. */
class IsoDateTimeUnitTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "2026-11-23T09:00:00+08:00, 2026-11-23T01:00:00Z",
        "2026-11-23T09:00:00Z, 2026-11-23T09:00:00Z",
        "2026-11-23T09:00:00.123-05:30, 2026-11-23T14:30:00.123Z",
        "0001-01-01T00:00:00Z, 0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999Z, 9999-12-31T23:59:59.999Z"
    })
    void takesDateTimesWithAnOffsetAsTheInstantTheyName(String text, Instant instant) {
        assertThat(IsoDateTime.Validator.parse(text).toInstant()).isEqualTo(instant);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2026-11-23T09:00:00",
                "2026-11-23",
                "tomorrow",
                "",
                "2026-13-01T09:00:00Z",
                "2026-11-23 09:00:00Z",
                "+10000-01-01T00:00:00Z",
                "9999-12-31T23:00:00-01:00",
                "0001-01-01T00:30:00+01:00",
                "-0001-01-01T00:00:00Z"
            })
    void refusesOthersAndTheYearsBeyondTheDatabase(String text) {
        assertThat(IsoDateTime.Validator.parse(text)).isNull();
    }
}
