package com.meetingreminders.signing;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookSigningException;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Standard Webhooks signing secret: {@code whsec_} followed by the base64 of 24 to 64 random bytes, those bytes
 * being the HMAC-SHA256 key. {@link #toString()} never shows the key.
 */
public final class WebhookSecret {

    public static final String PREFIX = "whsec_";

    static final int MIN_BYTES = 24;

    static final int MAX_BYTES = 64;

    /** What the service makes: 256 bits, as long as the HMAC's own output. */
    private static final int NEW_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    /** The library's signer and verifier: it holds only the key, and makes a Mac per call, so one serves every thread. */
    private final Webhook signer;

    private WebhookSecret(byte[] key) {
        this.key = key.clone();
        this.signer = new Webhook(this.key);
    }

    /** A new secret of random bytes. */
    public static WebhookSecret generate() {
        byte[] key = new byte[NEW_BYTES];
        RANDOM.nextBytes(key);
        return new WebhookSecret(key);
    }

    /** The secret of these key bytes, as stored. */
    public static WebhookSecret ofKey(byte[] key) {
        if (key.length < MIN_BYTES || key.length > MAX_BYTES) {
            throw new IllegalArgumentException("A signing key has 24 to 64 bytes, not " + key.length);
        }
        return new WebhookSecret(key);
    }

    /** The secret this text spells, or empty when it is not {@code whsec_} and the base64 of 24 to 64 bytes. */
    public static Optional<WebhookSecret> parse(String text) {
        if (text == null || !text.startsWith(PREFIX)) {
            return Optional.empty();
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text.substring(PREFIX.length()));
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
        return key.length < MIN_BYTES || key.length > MAX_BYTES
                ? Optional.empty()
                : Optional.of(new WebhookSecret(key));
    }

    /** The secret as receivers configure it: {@code whsec_...}. */
    public String encoded() {
        return PREFIX + Base64.getEncoder().encodeToString(key);
    }

    /** The key bytes, for storing. */
    public byte[] key() {
        return key.clone();
    }

    /** {@code v1,{base64 HMAC-SHA256 of "{id}.{timestamp}.{body}"}}, as the Standard Webhooks library makes it. */
    String sign(String id, long timestamp, String body) {
        try {
            return signer.sign(id, timestamp, body);
        } catch (WebhookSigningException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    /**
     * Whether these headers (names in lower case) carry a Standard Webhooks signature of {@code body} by this secret,
     * with a timestamp the library accepts: what a receiver checks.
     */
    public boolean verifies(String body, Map<String, List<String>> headers) {
        try {
            signer.verify(body, headers);
            return true;
        } catch (WebhookVerificationException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return PREFIX + "(hidden)";
    }
}
