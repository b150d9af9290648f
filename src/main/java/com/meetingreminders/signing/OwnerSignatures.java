package com.meetingreminders.signing;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What signs the notifications a delivery round sends to its callers' own webhook URLs: each caller's secret, never
 * the deployment's, so that no receiver can forge what another receives. The secrets of owners seen lately are held
 * ({@link RecentSecrets}); one query per round reads those of all the others.
 */
@ApplicationScoped
public class OwnerSignatures {

    private final SigningSecretStore store;
    private final RecentSecrets recent;
    private final Clock clock;

    OwnerSignatures(SigningSecretStore store, RecentSecrets recent, Clock clock) {
        this.store = store;
        this.recent = recent;
        this.clock = clock;
    }

    /** Each owner's signature for a message sent now; an owner without a secret gets one first. */
    public Map<String, WebhookSignature> of(Collection<String> wanted) {
        Set<String> owners = Set.copyOf(wanted);
        Instant now = clock.instant();
        Map<String, StoredSecrets> found = recent.of(owners);
        List<String> unread =
                owners.stream().filter(owner -> !found.containsKey(owner)).toList();
        if (!unread.isEmpty()) {
            RecentSecrets.ReadStart since = recent.beginRead();
            Map<String, StoredSecrets> read = store.find(unread);
            List<String> missing =
                    unread.stream().filter(owner -> !read.containsKey(owner)).toList();
            if (!missing.isEmpty()) {
                // In a transaction of its own, committed at once: a caller asking GET /signing-secret meanwhile, or
                // another replica's round, does not wait for this round's sends to end.
                QuarkusTransaction.requiringNew().run(() -> store.createIfMissing(missing, now));
                read.putAll(store.find(missing));
            }
            recent.keep(read, since);
            found.putAll(read);
        }
        Map<String, WebhookSignature> signatures = new HashMap<>();
        found.forEach((owner, secrets) -> signatures.put(owner, secrets.signature(now)));
        return signatures;
    }
}
