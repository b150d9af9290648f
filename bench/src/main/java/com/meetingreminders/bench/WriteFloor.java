package com.meetingreminders.bench;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The write floor (bench/write-floor): the least Quarkus application that verifies the same bearer token and inserts
 * one meeting row and its reminder rows in one transaction, through the same datasource settings, into tables made
 * like the service's (columns, defaults, constraints and indexes) in a schema of its own, so that the service's
 * replicas never see, count or reconcile its rows. One process, started here and stopped by pid with the run.
 */
final class WriteFloor {

    static final String JAR = "bench/write-floor/target/quarkus-app/quarkus-run.jar";

    private static final String SYSTEM = "floor: token + one transaction";

    private final int port = ChildProcess.freePort();

    private static final String SCHEMA = "create schema write_floor;"
            + " create table write_floor.meeting (like public.meeting including all);"
            + " create table write_floor.reminder (like public.reminder including all);"
            + " alter table write_floor.reminder add foreign key (meeting_id) references write_floor.meeting (id)"
            + " on delete cascade";

    /** With {@code profile}, it records a JFR profile to target/bench/write-floor.jfr until it stops. */
    WriteFloor(String database, boolean profile) throws InterruptedException, SQLException {
        Postgres.execute(database, SCHEMA);
        List<String> command = new ArrayList<>(List.of(ChildProcess.java(), "-Xmx512m"));
        if (profile) {
            command.add(ChildProcess.flightRecording("write-floor"));
        }
        command.addAll(List.of(
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.datasource.jdbc.url=" + Postgres.jdbcUrl(database) + "?currentSchema=write_floor",
                "-Dmp.jwt.verify.publickey.location=dev/jwt-public.pem",
                "-Dmp.jwt.verify.issuer=meeting-reminders-dev",
                "-jar",
                JAR));
        ChildProcess.start("write-floor", command);
        ChildProcess.awaitPort(port, Duration.ofSeconds(120));
    }

    CreateLoad load(String body) {
        return new CreateLoad(SYSTEM, List.of(port), body);
    }

    /** Warms the write floor on the creates scenarios' load as the replicas are warmed (see {@link JitWarmUp}). */
    Result warmUp(String body, Duration atMost) throws Exception {
        return JitWarmUp.until("warm-up-creates-floor", SYSTEM, "write_floor", atMost, slice -> load(body)
                .concurrent("warm-up", slice % 2 == 0 ? 16 : 64, 5));
    }
}
