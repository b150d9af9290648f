package com.meetingreminders.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The Redis names: all under the configured prefix, and trigger keys that the Lua scripts' spelling parses back. */
class ReminderKeysUnitTest {

    private static final String PREFIX = "rm-unit:";
    private final ReminderKeys keys = new ReminderKeys(PREFIX);

    @Test
    void namesEveryKeyAndChannelUnderThePrefix() {
        assertThat(new String[] {
                    keys.schedule(),
                    keys.armedUntil(),
                    keys.reconciled(),
                    keys.reconcileLock(),
                    keys.triggerPrefix(),
                    keys.claimPrefix(),
                    keys.deliveredChannel(),
                    keys.requestRate("alice"),
                    keys.openStreams("alice")
                })
                .allSatisfy(name -> assertThat(name).startsWith(PREFIX))
                .doesNotHaveDuplicates();
    }

    @Test
    void readsBackTheReminderOfATriggerKeyAsTheScriptsSpellIt() {
        ReminderRef ref = new ReminderRef(UUID.randomUUID(), Instant.parse("2026-11-23T09:00:00Z"));
        String key = keys.triggerPrefix() + ref.id();

        assertThat(keys.isTrigger(key)).isTrue();
        assertThat(keys.parseTrigger(key)).contains(ref);
    }

    @Test
    void ignoresKeysThatAreNotTriggers() {
        ReminderRef ref = new ReminderRef(UUID.randomUUID(), Instant.parse("2026-11-23T09:00:00Z"));

        assertThat(keys.parseTrigger(keys.claimPrefix() + ref.id())).isEmpty();
        assertThat(keys.parseTrigger("other-app:trigger:" + ref.id())).isEmpty();
        assertThat(keys.parseTrigger(keys.triggerPrefix() + "garbage")).isEmpty();
        assertThat(keys.parseTrigger(keys.schedule())).isEmpty();
    }

    @Test
    void keepsEachCallersLimitsApartWithoutWritingTheCallersId() {
        String caller = "https://idp.example.com|alice";

        assertThat(keys.requestRate(caller))
                .isEqualTo(keys.requestRate(caller))
                .isNotEqualTo(keys.requestRate("https://idp.example.com|bob"))
                .doesNotContain("alice")
                .matches(java.util.regex.Pattern.quote(PREFIX) + "limits:rate:[0-9a-f]{32}");
        assertThat(keys.openStreams(caller))
                .doesNotContain("alice")
                .endsWith(keys.requestRate(caller).substring((PREFIX + "limits:rate:").length()));
    }

    @Test
    void twoDeploymentsWithTwoPrefixesShareNoName() {
        ReminderKeys other = new ReminderKeys("rm-other:");

        assertThat(other.schedule()).isNotEqualTo(keys.schedule());
        assertThat(other.deliveredChannel()).isNotEqualTo(keys.deliveredChannel());
        assertThat(keys.isTrigger(other.triggerPrefix() + "x")).isFalse();
    }
}
