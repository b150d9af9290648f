package com.meetingreminders.signing;

import com.meetingreminders.config.RemindersConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;
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
public class SigningSecrets {

    private final SigningSecretStore store;
    private final RecentSecrets recent;
    private final Clock clock;
    private final Duration overlap;

    SigningSecrets(SigningSecretStore store, RecentSecrets recent, Clock clock, RemindersConfig config) {
        this.store = store;
        this.recent = recent;
        this.clock = clock;
        this.overlap = config.webhook().rotationOverlap();
    }

    /** The caller's secret, made now if the caller has none. */
    @Transactional
    public SigningSecretView current(String owner) {
        Instant now = clock.instant();
        StoredSecrets found = store.find(List.of(owner)).get(owner);
        if (found == null) {
            store.createIfMissing(List.of(owner), now);
            found = store.find(List.of(owner)).get(owner);
        }
        return found.view(now);
    }

    /**
     * A new secret for the caller; the one it replaces keeps signing beside it for the overlap. Once committed, every
     * replica is told to read the caller's secrets again.
     */
    public SigningSecretView rotate(String owner) {
        Instant now = clock.instant();
        StoredSecrets rotated =
                QuarkusTransaction.requiringNew().call(() -> store.rotate(owner, now, now.plus(overlap)));
        recent.rotated(owner);
        return rotated.view(now);
    }
}
