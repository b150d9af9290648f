package com.meetingreminders.config;

import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import java.time.Duration;

/** Fair use: what one caller (a token's identity) may take, counted across every replica. */
public interface LimitsConfig {
    /** Requests a second one caller may make; a second's worth may come at once. */
    @WithDefault("50")
    @Positive
    int requestsPerSecond();

    /** Meetings one caller may hold (stored, past ones included until deleted). */
    @WithDefault("10000")
    @Positive
    int meetingsHeld();

    /** Reminders of one caller's meetings that may fall due within one calendar minute (UTC). */
    @WithDefault("1000")
    @Positive
    int remindersPerMinute();

    /** E-mails the reminders of one caller's meetings may send within one calendar hour (UTC), with e-mail on. */
    @WithDefault("1000")
    @Positive
    int emailsPerHour();

    /** Reminder streams one caller may have open at once. */
    @WithDefault("5")
    @Positive
    int openStreams();

    /** How long an open stream keeps its place without its replica renewing it: a dead replica's streams free by then. */
    @WithDefault("30s")
    Duration streamLease();

    /** How often the counts of minutes and hours that are over are deleted, by any replica. */
    @WithDefault("10m")
    Duration cleanupInterval();

    /** How long after start a replica first deletes them. */
    @WithDefault("1m")
    Duration cleanupDelay();
}
