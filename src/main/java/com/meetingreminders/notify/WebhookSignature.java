package com.meetingreminders.notify;

import com.meetingreminders.config.RemindersConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The X-Reminder-Signature of a webhook body: {@code sha256=} and the hex HMAC-SHA256 of the body's bytes. */
@ApplicationScoped
public class WebhookSignature {

    private static final String ALGORITHM = "HmacSHA256";

    private final Optional<SecretKeySpec> key;

    WebhookSignature(RemindersConfig config) {
        this.key = config.webhook()
                .secret()
                .map(secret -> new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
    }

    /** The header value for this body, or empty when no secret is configured. */
    public Optional<String> of(String body) {
        return key.map(secret -> "sha256=" + HexFormat.of().formatHex(hmac(secret, body)));
    }

    private static byte[] hmac(SecretKeySpec secret, String body) {
        try {
            // A Mac is not thread-safe, and making one is cheap next to an HTTP call.
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(secret);
            return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }
}
