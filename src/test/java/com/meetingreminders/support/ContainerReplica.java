package com.meetingreminders.support;

import static com.meetingreminders.support.Podman.podman;
import static io.restassured.RestAssured.given;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The service's image run as a container on the host's network, on a free port, against the machine's PostgreSQL and
 * Redis, as a deployment runs it: settings from the environment, the JWT public key and the secrets from mounted
 * files. Removed with {@code podman rm -f} on close; its log goes to {@code target/container-<name>.log}.
 */
public final class ContainerReplica implements AutoCloseable {

    /** On a 2-core machine that other builds keep busy, a container's JVM has taken up to 160 s to be ready. */
    private static final Duration STARTUP = Duration.ofSeconds(300);

    private final String name;
    private final String container;
    private final int port;
    private Duration startedIn;

    private ContainerReplica(String name, String container, int port) {
        this.name = name;
        this.container = container;
        this.port = port;
    }

    /**
     * Starts a container of the image with these environment variables, the development public key mounted as the
     * token verification key and secretsFile mounted as a properties file of secrets; waits until it is ready.
     */
    public static ContainerReplica start(String name, String image, Map<String, String> environment, Path secretsFile) {
        int port = Replica.freePort();
        Instant asked = Instant.now();
        String container = "mr-it-" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> arguments = new ArrayList<>(List.of("run", "--detach", "--name", container, "--network", "host"));
        arguments.addAll(List.of(
                "--volume", Path.of("dev/jwt-public.pem").toAbsolutePath() + ":/etc/reminders/jwt-public.pem:ro"));
        arguments.addAll(List.of("--volume", secretsFile.toAbsolutePath() + ":/etc/reminders/secrets.properties:ro"));
        Map<String, String> settings = new TreeMap<>(environment);
        settings.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        settings.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", "/etc/reminders/jwt-public.pem");
        settings.put("MP_JWT_VERIFY_ISSUER", Tokens.DEV_ISSUER);
        settings.put("MP_JWT_VERIFY_AUDIENCES", Tokens.DEV_AUDIENCE);
        settings.put("QUARKUS_CONFIG_LOCATIONS", "/etc/reminders/secrets.properties");
        settings.forEach((key, value) -> arguments.addAll(List.of("--env", key + "=" + value)));
        arguments.add(image);
        // Whatever ends the test run (a failed start beside this one, a killed fork), the container goes with it.
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(() -> podman("rm", "--force", "--ignore", container), "remove-" + container));
        try {
            podman(arguments.toArray(String[]::new));
        } catch (RuntimeException e) {
            // A container that could not start stays behind as created: remove it too.
            podman("rm", "--force", "--ignore", container);
            throw e;
        }
        ContainerReplica replica = new ContainerReplica(name, container, port);
        ServiceHttp.awaitReady("Container " + name, port, STARTUP, replica::isRunning, replica, log(name));
        replica.startedIn = Duration.between(asked, Instant.now());
        return replica;
    }

    private static Path log(String name) {
        return Path.of("target", "container-" + name + ".log");
    }

    /** Creates a meeting through this container and returns its id. */
    public String create(MeetingBody body) {
        return ServiceHttp.create(port, body);
    }

    /** The replicas this container's {@code GET /admin/delivery} lists as ready, by id. */
    public List<String> readyReplicas() {
        return given().baseUri("http://127.0.0.1")
                .port(port)
                .header("Authorization", "Bearer " + Tokens.operator("container-it"))
                .get("/admin/delivery")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("replicas.findAll { it.ready }.id", String.class);
    }

    /** From podman run to the first ready answer. */
    public Duration startedIn() {
        return startedIn;
    }

    public boolean isRunning() {
        return Boolean.parseBoolean(podman("inspect", "--format", "{{.State.Running}}", container));
    }

    /** {@code podman stop}: SIGTERM, as a deployment stops it; returns how long the container took to exit. */
    public Duration stop(Duration gracePeriod) {
        Instant asked = Instant.now();
        podman("stop", "--time", String.valueOf(gracePeriod.toSeconds()), container);
        return Duration.between(asked, Instant.now());
    }

    /** The exit code, once stopped: 143 is the JVM's answer to SIGTERM, 137 a SIGKILL after the grace period. */
    public int exitCode() {
        return Integer.parseInt(podman("inspect", "--format", "{{.State.ExitCode}}", container));
    }

    /** Keeps the container's log in target/, then removes the container, running or not. */
    @Override
    public void close() {
        try {
            Files.writeString(log(name), podman("logs", container));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            podman("rm", "--force", container);
        }
    }
}
