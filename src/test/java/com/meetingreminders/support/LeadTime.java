package com.meetingreminders.support;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.IntStream;

/**
 * Lead times sized from what creating meetings takes on this machine, now: a test times a probe (meetings that never
 * fall due while it runs), scales it to what it is about to create, and takes three times that. A loaded machine
 * gets a longer lead, a fast one a short one, and {@link #requireBefore} says so plainly if even that was outrun.
 */
public final class LeadTime {

    /** How many times the estimate a test waits: creation rates on a shared machine vary by a factor of two. */
    private static final int SAFETY = 3;

    /** The least lead: the first requests of a fresh application, and the arm after each commit, take time too. */
    private static final Duration FLOOR = Duration.ofSeconds(5);

    private LeadTime() {}

    /**
     * Runs {@code probe}, which creates {@code probeSize} meetings the way the test is about to create {@code count},
     * and returns how far ahead their send time should be. The probe runs twice and the second run counts: the first
     * of a freshly started application pays for its warm-up, which the meetings after it do not.
     */
    public static Duration toCreate(int count, int probeSize, Runnable probe) {
        probe.run();
        long started = System.nanoTime();
        probe.run();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        // Whole milliseconds, as the service keeps instants: a send time with more digits is another instant to it.
        Duration lead = took.multipliedBy((long) count * SAFETY)
                .dividedBy(probeSize)
                .plus(FLOOR)
                .truncatedTo(ChronoUnit.MILLIS);
        System.out.printf(
                "Creating %d meetings took %d ms here and now: %d meetings get a lead time of %d ms%n",
                probeSize, took.toMillis(), count, lead.toMillis());
        return lead;
    }

    /**
     * {@link #toCreate} for {@code count} meetings created one after another through the API, the probe being three
     * such meetings, whose reminders go to {@code receiver}'s {@code /probe}.
     */
    public static Duration toCreate(int count, WebhookReceiver receiver) {
        return toCreate(count, 3, () -> IntStream.range(0, 3)
                .forEach(i -> Api.create(MeetingBody.meeting().webhookUrl(receiver.url("/probe")))));
    }

    /**
     * Runs a step a test will take before its reminders fall due (a server stopped and started again, say) and
     * returns the lead time it asks for: three times what it took.
     */
    public static Duration toRepeat(String step, Runnable probe) {
        long started = System.nanoTime();
        probe.run();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        System.out.printf("%s took %d ms here and now%n", step, took.toMillis());
        return took.multipliedBy(SAFETY).truncatedTo(ChronoUnit.MILLIS);
    }

    /** Fails the test plainly when its setup outran the lead time, rather than letting late reminders look like a bug. */
    public static void requireBefore(Instant sendAt) {
        Instant now = Instant.now();
        if (!now.isBefore(sendAt)) {
            throw new IllegalStateException("The setup outran its lead time: it ended "
                    + Duration.between(sendAt, now).toMillis() + " ms after the send time");
        }
    }

    /**
     * The send time {@code lead} from now, now being taken after the lead was measured:
     * {@code LeadTime.fromNow(LeadTime.toCreate(...))}, never {@code Moments.now().plus(LeadTime.toCreate(...))},
     * which takes now before the probe runs.
     */
    public static Instant fromNow(Duration lead) {
        return Instant.ofEpochMilli(System.currentTimeMillis()).plus(lead);
    }

    /** How long from now until {@code wait} after the send time: what a wait for deliveries may take at most. */
    public static Duration until(Instant sendAt, Duration wait) {
        return Duration.between(Instant.now(), sendAt.plus(wait));
    }
}
