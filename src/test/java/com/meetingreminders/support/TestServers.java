package com.meetingreminders.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;

/**
 * Test resources that start a server of the test's own before the application, point the application at it and
 * inject the server into the test: {@code @QuarkusTestResource(value = TestServers.OwnRedis.class,
 * restrictToAnnotatedClass = true)} with a field {@code @TestServers.Injected RedisServer redis}.
 */
public final class TestServers {

    private TestServers() {}

    /** Marks the field that receives the server. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface Injected {}

    /** A Redis of the test's own: the application's timers live there. */
    public static class OwnRedis implements QuarkusTestResourceLifecycleManager {
        private RedisServer server;

        @Override
        public Map<String, String> start() {
            server = RedisServer.start();
            return Map.of("reminders.redis.address", server.address());
        }

        @Override
        public void inject(TestInjector injector) {
            injector.injectIntoFields(
                    server, new TestInjector.AnnotatedAndMatchesType(Injected.class, RedisServer.class));
        }

        @Override
        public void stop() {
            server.close();
        }
    }

    /** A PostgreSQL of the test's own: the application's meetings live there. */
    public static class OwnPostgres implements QuarkusTestResourceLifecycleManager {
        private PostgresServer server;

        @Override
        public Map<String, String> start() {
            server = PostgresServer.start();
            return Map.of("quarkus.datasource.jdbc.url", server.jdbcUrl());
        }

        @Override
        public void inject(TestInjector injector) {
            injector.injectIntoFields(
                    server, new TestInjector.AnnotatedAndMatchesType(Injected.class, PostgresServer.class));
        }

        @Override
        public void stop() {
            server.close();
        }
    }
}
