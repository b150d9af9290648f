package com.meetingreminders.signing;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.config.StartupRefusal;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.interceptor.Interceptor;

/**
 * The deployment's secret, {@code reminders.webhook.secret}: it signs what goes to the default target
 * ({@code reminders.webhook.url}) and nothing else. Read at start, so that a replica with a malformed one refuses to
 * start instead of sending what no receiver can verify.
 */
// Before every other start-up step: nothing else should run with a setting that makes the replica useless.
@Startup(Interceptor.Priority.PLATFORM_BEFORE)
@ApplicationScoped
public class DeploymentSecret {

    private final WebhookSignature signature;

    DeploymentSecret(RemindersConfig config) {
        this.signature = config.webhook()
                .secret()
                .map(text -> WebhookSignature.by(WebhookSecret.parse(text)
                        .orElseThrow(() -> new StartupRefusal("reminders.webhook.secret"
                                + " (REMINDERS_WEBHOOK_SECRET) must be whsec_ followed by the base64 of 24 to 64"
                                + " random bytes, for instance: whsec_$(head -c 32 /dev/urandom | base64)"))))
                .orElse(WebhookSignature.NONE);
    }

    /** What signs a notification to the default target. */
    public WebhookSignature signature() {
        return signature;
    }
}
