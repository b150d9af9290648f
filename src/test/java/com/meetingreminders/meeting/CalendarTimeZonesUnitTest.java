package com.meetingreminders.meeting;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CalendarTimeZonesUnitTest {

    @Test
    void takesAnIanaNameAsItIs() {
        assertThat(CalendarTimeZones.resolve("America/New_York")).contains("America/New_York");
    }

    @Test
    void findsTheIanaNameBehindAPrefix() {
        assertThat(CalendarTimeZones.resolve("/mozilla.org/20050126_1/Europe/Paris"))
                .contains("Europe/Paris");
    }

    @Test
    void mapsTheWindowsNamesOutlookWritesWhateverTheirCase() {
        assertThat(CalendarTimeZones.resolve("W. Europe Standard Time")).contains("Europe/Berlin");
        assertThat(CalendarTimeZones.resolve("romance standard time")).contains("Europe/Paris");
        assertThat(CalendarTimeZones.resolve("Lord Howe Standard Time")).contains("Australia/Lord_Howe");
    }

    @Test
    void knowsNothingOfAZoneNoTableNames() {
        assertThat(CalendarTimeZones.resolve("Mars/Olympus_Mons")).isEmpty();
        assertThat(CalendarTimeZones.resolve("Middle Earth Standard Time")).isEmpty();
        assertThat(CalendarTimeZones.resolve("+01:00")).isEmpty();
    }
}
