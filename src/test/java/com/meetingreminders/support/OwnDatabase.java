package com.meetingreminders.support;

import java.util.UUID;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A database of the test's own on the machine's PostgreSQL, created before each test and dropped after it, for
 * replicas started as processes ({@code @RegisterExtension}).
 */
public final class OwnDatabase implements BeforeEachCallback, AfterEachCallback {

    private final String name = "it_" + UUID.randomUUID().toString().replace("-", "");

    public String jdbcUrl() {
        return Database.SERVER + name;
    }

    /** For {@link Database}'s queries. */
    public String name() {
        return name;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        create();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        drop();
    }

    /** For test engines other than Jupiter, which call these themselves. */
    public void create() {
        Database.execute("postgres", "create database " + name);
    }

    public void drop() {
        Database.execute("postgres", "drop database if exists " + name + " with (force)");
    }
}
