package com.meetingreminders.signing;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The secrets that sign what goes to one target: one, or two while a rotation overlaps (the new and the old one), or
 * none. A receiver that knows any of them verifies the message.
 */
public final class WebhookSignature {

    /** Nothing signs: the deployment configured no {@code reminders.webhook.secret}. */
    public static final WebhookSignature NONE = new WebhookSignature(List.of());

    private final List<WebhookSecret> secrets;

    private WebhookSignature(List<WebhookSecret> secrets) {
        this.secrets = List.copyOf(secrets);
    }

    public static WebhookSignature by(List<WebhookSecret> secrets) {
        return new WebhookSignature(secrets);
    }

    public static WebhookSignature by(WebhookSecret secret) {
        return new WebhookSignature(List.of(secret));
    }

    /**
     * The {@code webhook-signature} header of one attempt: {@code v1,...} per secret, separated by a space, as the
     * Standard Webhooks verifiers read it; empty when nothing signs.
     */
    public Optional<String> of(String id, long timestamp, String body) {
        return secrets.isEmpty()
                ? Optional.empty()
                : Optional.of(secrets.stream()
                        .map(secret -> secret.sign(id, timestamp, body))
                        .collect(Collectors.joining(" ")));
    }

    /** How many secrets sign: 0, 1, or 2 during a rotation. */
    public int size() {
        return secrets.size();
    }
}
