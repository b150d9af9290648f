package com.meetingreminders.timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The arguments of the claim and settle scripts, written one way for the shards and for the delivery warm-up. */
final class ScriptArguments {

    private ScriptArguments() {}

    /** claim.lua's: the claim counters' prefix, the lease in ms, the deadline in ms, then the members heard. */
    static List<String> claim(String claimPrefix, Duration lease, long deadline, Collection<ReminderRef> heard) {
        List<String> args = new ArrayList<>(3 + heard.size());
        args.add(claimPrefix);
        args.add(Long.toString(lease.toMillis()));
        args.add(Long.toString(deadline));
        heard.forEach(ref -> args.add(ref.id()));
        return args;
    }

    /** settle.lua's: the trigger and claim prefixes, then each member and its delay in ms, -1 for finished. */
    static List<String> settle(String triggerPrefix, String claimPrefix, Collection<Settlement> settlements) {
        List<String> args = new ArrayList<>(2 + 2 * settlements.size());
        args.add(triggerPrefix);
        args.add(claimPrefix);
        for (Settlement settlement : settlements) {
            args.add(settlement.ref().id());
            args.add(Long.toString(
                    settlement.dueAgainIn().map(Duration::toMillis).orElse(-1L)));
        }
        return args;
    }
}
