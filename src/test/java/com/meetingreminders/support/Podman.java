package com.meetingreminders.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The podman command line, with the project's deploy/containers.conf (limits any host allows) unless CONTAINERS_CONF
 * says otherwise, as deploy/build-image and bench/image run it.
 */
public final class Podman {

    /** The image the container tests build once per run, from the packaged application on the Debian base. */
    public static final String TEST_IMAGE = "localhost/meeting-reminders:it";

    private static volatile boolean imageBuilt;

    private Podman() {}

    /** Why containers cannot run here, or null when they can. */
    public static String unavailableBecause() {
        try {
            run(List.of("podman", "--version"));
        } catch (RuntimeException e) {
            return "podman is not installed (.ci/run installs it): " + e.getMessage();
        }
        if (!Files.exists(Path.of("target/quarkus-app/quarkus-run.jar"))) {
            return "target/quarkus-app/quarkus-run.jar is missing: run the integration tests with ./mvnw verify";
        }
        return null;
    }

    /**
     * Builds {@link #TEST_IMAGE} with deploy/build-image from the packaged application, once per test run; the base
     * image is reused between runs (deploy/base-image makes it only when missing).
     */
    public static synchronized void buildTestImageOnce() {
        if (!imageBuilt) {
            run(List.of("deploy/build-image", "--debian-base", "--no-package", "--tag", TEST_IMAGE));
            imageBuilt = true;
        }
    }

    /** Runs podman with these arguments and returns what it printed; fails with its error output if it failed. */
    public static String podman(String... arguments) {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(arguments));
        return run(command);
    }

    private static String run(List<String> command) {
        try {
            Path errors = Files.createTempFile("podman", ".err");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
                Map<String, String> environment = builder.environment();
                environment.putIfAbsent(
                        "CONTAINERS_CONF",
                        Path.of("deploy/containers.conf").toAbsolutePath().toString());
                Process process = builder.start();
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
                    throw new IllegalStateException(String.join(" ", command) + " failed: " + Files.readString(errors));
                }
                return output.strip();
            } finally {
                Files.deleteIfExists(errors);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
