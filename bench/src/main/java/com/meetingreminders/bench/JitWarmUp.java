package com.meetingreminders.bench;

import java.time.Duration;

/**
 * Warms one side of a comparison as a process that has run for a while is warm: runs slices of the load a scenario
 * will measure until that side's JIT compilers go quiet, so that a row measures the side's work and not its compiler.
 * On two shared cores the service's replicas spent 35 to 45% of their CPU in the C2 compiler through the creates rows
 * a minute or two after they started, and went quiet only after about 70 s of creates; the write floor, a much
 * smaller program, after about 30 s. A replica's first minute is measured on its own (the cold scenario).
 */
final class JitWarmUp {

    /** Quiet: the compilers took at most this share of the side's CPU during the last slice. */
    static final long QUIET_PERCENT = 5;

    /**
     * One slice of load, unrecorded; {@code index} counts from 0, so that slices can vary what they run. Its result
     * says what share of the side's CPU its compilers took while the load ran ({@code jit_pct_}, see {@link
     * Result#cpu}), over the window a scenario's row measures: not while the next slice's reminders are being loaded.
     */
    interface Slice {
        Result run(int index) throws Exception;
    }

    private JitWarmUp() {}

    /**
     * Runs {@code slice} until the compilers of {@code role}'s processes took at most {@link #QUIET_PERCENT} of their
     * CPU in one slice, or for about {@code atMost}. The row says how long it took, in how many slices, and the
     * compilers' share in the last: {@code quiet} is false where the bound cut it short, and the rows after it then
     * say so too, in their own {@code jit_pct_} figures.
     */
    static Result until(String name, String system, String role, Duration atMost, Slice slice) throws Exception {
        long started = System.nanoTime();
        long deadline = started + atMost.toNanos();
        int slices = 0;
        long percent;
        do {
            Object figure = slice.run(slices++).figures.get("jit_pct_" + role);
            if (!(figure instanceof Number share)) {
                throw new IllegalStateException("No JVM of the role " + role + " did the work of a warm-up slice");
            }
            percent = share.longValue();
        } while (percent > QUIET_PERCENT && System.nanoTime() < deadline);
        Result result = new Result(name, system);
        return result.figure("warm_up_s", Math.round((System.nanoTime() - started) / 1e9))
                .figure("slices", slices)
                .figure("jit_pct_last_slice", percent)
                .figure("quiet", percent <= QUIET_PERCENT);
    }
}
