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
                    keys.schedule(0),
                    keys.armedUntil(0),
                    keys.reconciled(0),
                    keys.reconcileLock(),
                    keys.triggerPrefix(0),
                    keys.claimPrefix(0),
                    keys.deliveredChannel(),
                    keys.streamListenersChannel(),
                    keys.signingSecretsChannel(),
                    keys.requestRate("alice"),
                    keys.openStreams("alice")
                })
                .allSatisfy(name -> assertThat(name).startsWith(PREFIX))
                .doesNotHaveDuplicates();
    }

    @Test
    void readsBackTheReminderOfATriggerKeyAsTheScriptsSpellIt() {
        ReminderRef ref = new ReminderRef(UUID.randomUUID(), Instant.parse("2026-11-23T09:00:00Z"));
        String key = keys.triggerPrefix(0) + ref.id();

        assertThat(keys.isTrigger(key)).isTrue();
        assertThat(keys.parseTrigger(key)).contains(ref);
    }

    @Test
    void ignoresKeysThatAreNotTriggers() {
        ReminderRef ref = new ReminderRef(UUID.randomUUID(), Instant.parse("2026-11-23T09:00:00Z"));

        assertThat(keys.parseTrigger(keys.claimPrefix(0) + ref.id())).isEmpty();
        assertThat(keys.parseTrigger("other-app:trigger:" + ref.id())).isEmpty();
        assertThat(keys.parseTrigger(keys.triggerPrefix(0) + "garbage")).isEmpty();
        assertThat(keys.parseTrigger(keys.schedule(0))).isEmpty();
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

        assertThat(other.schedule(0)).isNotEqualTo(keys.schedule(0));
        assertThat(other.deliveredChannel()).isNotEqualTo(keys.deliveredChannel());
        assertThat(keys.isTrigger(other.triggerPrefix(0) + "x")).isFalse();
    }
}
