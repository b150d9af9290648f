package com.meetingreminders.signing;

import java.time.Instant;
import java.util.List;

/**
 * A caller's row of {@code signing_secret}: the current secret and, after a rotation, the one before it until the
 * overlap ends.
 */
record StoredSecrets(
        String owner, WebhookSecret current, Instant createdAt, WebhookSecret previous, Instant previousExpiresAt) {

    /** True while the previous secret still signs beside the current one. */
    boolean overlaps(Instant now) {
        return previous != null && previousExpiresAt.isAfter(now);
    }

    /** What signs a message sent now: the current secret, and the previous one while the overlap lasts. */
    WebhookSignature signature(Instant now) {
        return overlaps(now) ? WebhookSignature.by(List.of(current, previous)) : WebhookSignature.by(current);
    }

    SigningSecretView view(Instant now) {
        return new SigningSecretView(
                current.encoded(),
                createdAt,
                overlaps(now) ? new SigningSecretView.Previous(previous.encoded(), previousExpiresAt) : null);
    }
}
