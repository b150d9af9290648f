package com.meetingreminders.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplicaNameUnitTest {

    @Test
    void aReplicaOnAHostWithALongNameHasAnIdItsHeartbeatCanKeep() {
        String host = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);

        String id = ReplicaName.of("1234567@" + host, "3f9a1c2e");

        assertThat(host).hasSize(253);
        assertThat(id).hasSize(ReplicaName.LONGEST).startsWith("1234567@aaa").endsWith("/3f9a1c2e");
    }

    @Test
    void aReplicaOnAHostWithAShortNameHasItsWholeName() {
        assertThat(ReplicaName.of("1@vm", "3f9a1c2e")).isEqualTo("1@vm/3f9a1c2e");
    }
}
