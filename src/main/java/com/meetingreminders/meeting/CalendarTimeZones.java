package com.meetingreminders.meeting;

import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The IANA zone a calendar's TZID names. Google and Apple write IANA names; some writers put a prefix before one
 * ({@code /mozilla.org/20050126_1/Europe/Paris}); Outlook writes Windows names ({@code W. Europe Standard Time}),
 * mapped here by the table CLDR keeps (windowsZones.xml, territory 001) for the zones meetings are most often in. The
 * VTIMEZONE block that comes with a TZID is not read: a meeting keeps an IANA zone, whose rules are the ones the
 * service knows to be current.
 */
final class CalendarTimeZones {

    private static final Map<String, String> WINDOWS = windows();

    private CalendarTimeZones() {}

    /** The IANA zone id the TZID stands for, if the service knows it. */
    static Optional<String> resolve(String tzid) {
        String name = tzid.strip();
        if (IanaZoneIds.isKnown(name)) {
            return Optional.of(name);
        }
        for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
            String tail = name.substring(slash + 1);
            if (IanaZoneIds.isKnown(tail)) {
                return Optional.of(tail);
            }
        }
        return Optional.ofNullable(WINDOWS.get(name.toLowerCase(Locale.ROOT)));
    }

    private static Map<String, String> windows() {
        Map<String, String> zones = new TreeMap<>();
        String[][] pairs = {
            {"Dateline Standard Time", "Etc/GMT+12"},
            {"UTC-11", "Etc/GMT+11"},
            {"Hawaiian Standard Time", "Pacific/Honolulu"},
            {"Alaskan Standard Time", "America/Anchorage"},
            {"Pacific Standard Time", "America/Los_Angeles"},
            {"Pacific Standard Time (Mexico)", "America/Tijuana"},
            {"US Mountain Standard Time", "America/Phoenix"},
            {"Mountain Standard Time", "America/Denver"},
            {"Mountain Standard Time (Mexico)", "America/Mazatlan"},
            {"Central America Standard Time", "America/Guatemala"},
            {"Central Standard Time", "America/Chicago"},
            {"Central Standard Time (Mexico)", "America/Mexico_City"},
            {"Canada Central Standard Time", "America/Regina"},
            {"SA Pacific Standard Time", "America/Bogota"},
            {"Eastern Standard Time", "America/New_York"},
            {"US Eastern Standard Time", "America/Indiana/Indianapolis"},
            {"Venezuela Standard Time", "America/Caracas"},
            {"Atlantic Standard Time", "America/Halifax"},
            {"Pacific SA Standard Time", "America/Santiago"},
            {"Newfoundland Standard Time", "America/St_Johns"},
            {"E. South America Standard Time", "America/Sao_Paulo"},
            {"Argentina Standard Time", "America/Argentina/Buenos_Aires"},
            {"SA Eastern Standard Time", "America/Cayenne"},
            {"Azores Standard Time", "Atlantic/Azores"},
            {"UTC", "UTC"},
            {"GMT Standard Time", "Europe/London"},
            {"Greenwich Standard Time", "Atlantic/Reykjavik"},
            {"Morocco Standard Time", "Africa/Casablanca"},
            {"W. Europe Standard Time", "Europe/Berlin"},
            {"Central Europe Standard Time", "Europe/Budapest"},
            {"Romance Standard Time", "Europe/Paris"},
            {"Central European Standard Time", "Europe/Warsaw"},
            {"W. Central Africa Standard Time", "Africa/Lagos"},
            {"GTB Standard Time", "Europe/Bucharest"},
            {"FLE Standard Time", "Europe/Kiev"},
            {"E. Europe Standard Time", "Europe/Chisinau"},
            {"Egypt Standard Time", "Africa/Cairo"},
            {"South Africa Standard Time", "Africa/Johannesburg"},
            {"Israel Standard Time", "Asia/Jerusalem"},
            {"Turkey Standard Time", "Europe/Istanbul"},
            {"Russian Standard Time", "Europe/Moscow"},
            {"Arab Standard Time", "Asia/Riyadh"},
            {"E. Africa Standard Time", "Africa/Nairobi"},
            {"Iran Standard Time", "Asia/Tehran"},
            {"Arabian Standard Time", "Asia/Dubai"},
            {"Afghanistan Standard Time", "Asia/Kabul"},
            {"Pakistan Standard Time", "Asia/Karachi"},
            {"West Asia Standard Time", "Asia/Tashkent"},
            {"Ekaterinburg Standard Time", "Asia/Yekaterinburg"},
            {"India Standard Time", "Asia/Kolkata"},
            {"Sri Lanka Standard Time", "Asia/Colombo"},
            {"Nepal Standard Time", "Asia/Kathmandu"},
            {"Bangladesh Standard Time", "Asia/Dhaka"},
            {"Myanmar Standard Time", "Asia/Yangon"},
            {"SE Asia Standard Time", "Asia/Bangkok"},
            {"North Asia Standard Time", "Asia/Krasnoyarsk"},
            {"China Standard Time", "Asia/Shanghai"},
            {"Singapore Standard Time", "Asia/Singapore"},
            {"Taipei Standard Time", "Asia/Taipei"},
            {"W. Australia Standard Time", "Australia/Perth"},
            {"Tokyo Standard Time", "Asia/Tokyo"},
            {"Korea Standard Time", "Asia/Seoul"},
            {"Cen. Australia Standard Time", "Australia/Adelaide"},
            {"AUS Central Standard Time", "Australia/Darwin"},
            {"E. Australia Standard Time", "Australia/Brisbane"},
            {"AUS Eastern Standard Time", "Australia/Sydney"},
            {"Lord Howe Standard Time", "Australia/Lord_Howe"},
            {"New Zealand Standard Time", "Pacific/Auckland"},
            {"Fiji Standard Time", "Pacific/Fiji"},
            {"Tonga Standard Time", "Pacific/Tongatapu"}
        };
        for (String[] pair : pairs) {
            // ZoneId.of fails the class at once, in every test that touches it, if the JDK lacks a zone named here.
            zones.put(pair[0].toLowerCase(Locale.ROOT), ZoneId.of(pair[1]).getId());
        }
        return Map.copyOf(zones);
    }
}
