package com.meetingreminders.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Real bearer tokens (RS256 JWTs), signed with the development key that the test profile verifies against (dev/), as
 * dev/token makes them. Plain JDK: a JWT library here would start its own configuration in the test's class loader,
 * beside Quarkus's.
 */
public final class Tokens {

    /** The caller of every request that does not say otherwise. */
    public static final String DEFAULT_CALLER = "alice";

    public static final String DEV_ISSUER = "meeting-reminders-dev";

    /** The audience the test profile (mp.jwt.verify.audiences) and dev/token use. */
    public static final String DEV_AUDIENCE = "meeting-reminders-dev";

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final PrivateKey DEV_KEY = readDevKey();

    private Tokens() {}

    /** A token of the caller, valid for two hours. */
    public static String of(String caller) {
        return sign(claimsOf(caller), DEV_KEY);
    }

    /** The claims of {@link #of}'s token, to change one before {@link #sign(Map, PrivateKey)}. */
    public static Map<String, Object> claimsOf(String caller) {
        Instant now = Instant.now();
        return claims(DEV_ISSUER, caller, now, now.plusSeconds(7200));
    }

    /** A token of the caller as an operator: its groups claim holds the test profile's operators' group. */
    public static String operator(String caller) {
        Map<String, Object> claims = claimsOf(caller);
        claims.put("groups", java.util.List.of(OPERATORS_GROUP));
        return sign(claims, DEV_KEY);
    }

    /** The operators' group, reminders.admin.group's default. */
    public static final String OPERATORS_GROUP = "reminders-admin";

    /** The owner the service records for a caller of the development issuer: {iss}|{sub}. */
    public static String ownerOf(String caller) {
        return DEV_ISSUER + "|" + caller;
    }

    /** The key the test profile trusts. */
    public static PrivateKey devKey() {
        return DEV_KEY;
    }

    /** An Authorization header value. */
    public static String bearer(String caller) {
        return "Bearer " + of(caller);
    }

    /** A token with these claims, signed with this key: for tests of tokens that must be refused. */
    public static String sign(String issuer, String subject, Instant issuedAt, Instant expiresAt, PrivateKey key) {
        return sign(claims(issuer, subject, issuedAt, expiresAt), key);
    }

    /** A token with exactly these claims, signed with this key. */
    public static String sign(Map<String, Object> claimSet, PrivateKey key) {
        String header = base64Url("{\"alg\":\"RS256\",\"typ\":\"JWT\"}");
        String claims;
        try {
            claims = base64Url(JSON.writeValueAsString(claimSet));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
            return header + "." + claims + "."
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not sign a token", e);
        }
    }

    private static Map<String, Object> claims(String issuer, String subject, Instant issuedAt, Instant expiresAt) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", issuer);
        claims.put("sub", subject);
        claims.put("aud", DEV_AUDIENCE);
        claims.put("iat", issuedAt.getEpochSecond());
        claims.put("exp", expiresAt.getEpochSecond());
        return claims;
    }

    private static String base64Url(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static PrivateKey readDevKey() {
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pemBytes("jwt-private.pem")));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("dev/jwt-private.pem is not a PKCS#8 RSA private key", e);
        }
    }

    /** The key the test profile verifies tokens with, for a test that verifies them outside the application. */
    public static PublicKey devPublicKey() {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(pemBytes("jwt-public.pem")));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("dev/jwt-public.pem is not an X.509 RSA public key", e);
        }
    }

    /** What a PEM file of dev/ holds between its BEGIN and END lines. */
    private static byte[] pemBytes(String name) {
        try {
            String pem = Files.readString(Path.of("dev", name))
                    .replaceAll("-----[A-Z ]+-----", "")
                    .replaceAll("\\s", "");
            return Base64.getDecoder().decode(pem);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
