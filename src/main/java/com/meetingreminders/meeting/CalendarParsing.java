package com.meetingreminders.meeting;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import net.fortuna.ical4j.data.CalendarParserFactory;
import net.fortuna.ical4j.data.ContentHandlerContext;
import net.fortuna.ical4j.data.DefaultComponentFactorySupplier;
import net.fortuna.ical4j.data.DefaultContentHandler;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.data.UnfoldingReader;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.ComponentFactory;
import net.fortuna.ical4j.model.ComponentList;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.PropertyList;
import net.fortuna.ical4j.model.TimeZoneRegistryFactory;
import net.fortuna.ical4j.model.component.XComponent;

/**
 * ical4j's parser, without the two things its {@code CalendarBuilder} does that a caller's body must not reach. The
 * service reads a TZID by its name ({@link CalendarTimeZones}), never from a VTIMEZONE, so a VTIMEZONE is kept as an
 * inert component:
 * <ul>
 *   <li>The builder makes a time zone of each VTIMEZONE as it ends, and that lists every onset of each observance's
 *       RRULE from its DTSTART to now: {@code FREQ=SECONDLY} from 1601 is billions of them, one request's worth of
 *       heap and CPU gone.
 *   <li>At the end of every calendar it registers a new zone-rules provider with the JDK, which keeps each one for
 *       good (and copies its list of providers to add one): a calendar import leaked on every request.
 * </ul>
 * It also tells how many calendars the body held: ical4j keeps only the last of several.
 */
final class CalendarParsing {

    private static final ContentHandlerContext WITH_INERT_TIME_ZONES =
            new ContentHandlerContext().withComponentFactorySupplier(CalendarParsing::factories);

    private CalendarParsing() {}

    /** What the body held: its last calendar, if any, and how many there were. */
    record Parsed(Optional<Calendar> last, int calendars) {}

    static Parsed parse(String text) throws IOException, ParserException {
        Handler handler = new Handler();
        CalendarParserFactory.getInstance().get().parse(new UnfoldingReader(new StringReader(text)), handler);
        return new Parsed(Optional.ofNullable(handler.last), handler.calendars);
    }

    private static List<ComponentFactory<?>> factories() {
        List<ComponentFactory<?>> factories = new ArrayList<>(new DefaultComponentFactorySupplier().get());
        factories.removeIf(factory -> factory.supports(Component.VTIMEZONE));
        factories.add(new InertTimeZones());
        return factories;
    }

    private static final class Handler extends DefaultContentHandler {
        /** The properties whose date-times the service reads as instants. */
        private static final Set<String> DATE_TIMES =
                Set.of(Property.DTSTART, Property.DTEND, Property.EXDATE, Property.RECURRENCE_ID);

        private Calendar last;
        private int calendars;
        private String property;

        Handler() {
            // The registry resolves the TZIDs of date-times by the names the JDK and ical4j know; nothing registers in
            // it.
            super(calendar -> {}, TimeZoneRegistryFactory.getInstance().createRegistry(), WITH_INERT_TIME_ZONES);
        }

        @Override
        public void startProperty(String name) {
            property = name;
            super.startProperty(name);
        }

        /**
         * Holds each date-time to the calendar as sent: ical4j reads 20270230T090000 as 28 February and gives back
         * only what it read, so that the meeting would take place on another day.
         */
        @Override
        public void propertyValue(String value) {
            if (property != null && DATE_TIMES.contains(property.toUpperCase(Locale.ROOT))) {
                for (String item : value.split(",")) {
                    if (item.length() > 8) {
                        CalendarValues.requireDateTime(item, property);
                    }
                }
            }
            super.propertyValue(value);
        }

        /** As the base class builds the calendar, without registering a zone-rules provider with the JDK. */
        @Override
        public void endCalendar() {
            last = new Calendar(new PropertyList(calendarProperties), new ComponentList<>(calendarComponents));
            calendars++;
        }
    }

    /** A VTIMEZONE with its properties and without its observances, of which no time zone is made. */
    private static final class InertTimeZones implements ComponentFactory<XComponent> {

        @Override
        public XComponent createComponent() {
            return new XComponent(Component.VTIMEZONE);
        }

        @Override
        public XComponent createComponent(PropertyList properties) {
            return new XComponent(Component.VTIMEZONE, properties);
        }

        @Override
        public XComponent createComponent(PropertyList properties, ComponentList<? extends Component> observances) {
            return createComponent(properties);
        }

        @Override
        public boolean supports(String name) {
            return Component.VTIMEZONE.equalsIgnoreCase(name);
        }
    }
}
