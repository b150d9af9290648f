package com.meetingreminders.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.Tokens;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The packaged application, started with the production profile and a setting that would make it useless, refuses
 * to start and says which setting, instead of starting and failing every call.
 */
class StartupChecksIT {

    /** Long enough for a cold JVM on a loaded machine to get to its start-up checks. */
    private static final long EXIT_WITHIN_SECONDS = 120;

    private static final String MALFORMED_SECRET = "not-a-whsec-secret";

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    @Test
    void aReplicaWithoutAKeyToVerifyTokensRefusesToStartAndNamesTheSetting() throws Exception {
        Exit exit = start("no-token-key", List.of());

        assertThat(exit.code()).isNotZero();
        assertThat(exit.log()).contains("No key to verify bearer tokens: set mp.jwt.verify.publickey.location");
    }

    @Test
    void aReplicaWithAMalformedWebhookSecretRefusesToStartAndNamesTheSetting() throws Exception {
        Exit exit = start(
                "malformed-secret",
                List.of(
                        "-Dmp.jwt.verify.publickey.location=dev/jwt-public.pem",
                        "-Dmp.jwt.verify.issuer=" + Tokens.DEV_ISSUER,
                        "-Dreminders.webhook.secret=" + MALFORMED_SECRET));

        assertThat(exit.code()).isNotZero();
        assertThat(exit.log()).contains("reminders.webhook.secret (REMINDERS_WEBHOOK_SECRET) must be whsec_");
        assertThat(exit.log()).as("the log never shows a secret").doesNotContain(MALFORMED_SECRET);
    }

    private record Exit(int code, String log) {}

    private Exit start(String name, List<String> settings) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-Xmx256m",
                "-Dquarkus.profile=prod",
                "-Dquarkus.http.port=" + Replica.freePort()));
        Map.of("quarkus.datasource.jdbc.url", database.jdbcUrl(), "reminders.redis.key-prefix", keys.prefix())
                .forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(settings);
        command.addAll(List.of("-jar", "target/quarkus-app/quarkus-run.jar"));
        File log = new File("target/startup-" + name + ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
        try {
            assertThat(process.waitFor(EXIT_WITHIN_SECONDS, TimeUnit.SECONDS))
                    .as("exited; see " + log)
                    .isTrue();
            return new Exit(process.exitValue(), Files.readString(log.toPath()));
        } finally {
            process.destroyForcibly();
        }
    }
}
