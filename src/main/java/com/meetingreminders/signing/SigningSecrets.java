package com.meetingreminders.signing;

import com.meetingreminders.config.RemindersConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A caller's signing secret: made on first use, here or by the first delivery to one of the caller's own webhook
 * URLs ({@link OwnerSignatures}), whichever comes first; rotated with an overlap.
 */
@ApplicationScoped
@Transactional
public class SigningSecrets {

    private final SigningSecretStore store;
    private final Clock clock;
    private final Duration overlap;

    SigningSecrets(SigningSecretStore store, Clock clock, RemindersConfig config) {
        this.store = store;
        this.clock = clock;
        this.overlap = config.webhook().rotationOverlap();
    }

    /** The caller's secret, made now if the caller has none. */
    public SigningSecretView current(String owner) {
        Instant now = clock.instant();
        StoredSecrets found = store.find(List.of(owner)).get(owner);
        if (found == null) {
            store.createIfMissing(List.of(owner), now);
            found = store.find(List.of(owner)).get(owner);
        }
        return found.view(now);
    }

    /** A new secret for the caller; the one it replaces keeps signing beside it for the overlap. */
    public SigningSecretView rotate(String owner) {
        Instant now = clock.instant();
        return store.rotate(owner, now, now.plus(overlap)).view(now);
    }
}
