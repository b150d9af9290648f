package com.meetingreminders.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.smallrye.jwt.runtime.auth.MpJwtValidator;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Verifies a bearer token once, not on every call: a client sends the same token until it expires, and parsing it and
 * checking its signature was a twentieth of a create's CPU. SmallRye JWT verifies each token the first time, as it
 * would without this; a token it accepted is then known by its exact text for at most {@link #LONGEST}, never past
 * its {@code exp}, so that no token is accepted for longer than SmallRye JWT accepts it. A token that failed is not
 * remembered: it is checked again each time, and one character changed makes another token. Each call still gets an
 * identity of its own, built as SmallRye JWT builds it.
 */
// Caffeine picks a class by the cache's features; Quarkus registers the common ones for a native image, not this one.
@RegisterForReflection(
        classNames = {"com.github.benmanes.caffeine.cache.SSMW", "com.github.benmanes.caffeine.cache.SSMWA"})
@ApplicationScoped
public class VerifiedTokens implements IdentityProvider<TokenAuthenticationRequest> {

    /**
     * A token's verification is kept no longer than this: SmallRye JWT reads a key set from a URL again only hourly,
     * so a key withdrawn from it is not trusted a minute longer than it would be anyway.
     */
    static final Duration LONGEST = Duration.ofMinutes(1);

    /** At most this many characters of tokens are kept: a few megabytes, however long the tokens clients send. */
    static final long MAX_CHARACTERS = 4L * 1024 * 1024;

    private final MpJwtValidator validator;
    private final Clock clock;
    private final Cache<String, JsonWebToken> verified;

    VerifiedTokens(MpJwtValidator validator, Clock clock) {
        this.validator = validator;
        this.clock = clock;
        this.verified = Caffeine.newBuilder()
                .maximumWeight(MAX_CHARACTERS)
                .weigher((String token, JsonWebToken parsed) -> token.length())
                .expireAfter(Expiry.creating((String token, JsonWebToken parsed) -> keptFor(parsed)))
                .build();
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    /** Asked before SmallRye JWT's own provider, which it asks itself for a token it does not know. */
    @Override
    public int priority() {
        return validator.priority() + 1;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(
            TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        String token = request.getToken().getToken();
        JsonWebToken known = token == null ? null : verified.getIfPresent(token);
        if (known != null) {
            return Uni.createFrom().item(identity(known, request));
        }
        return validator.authenticate(request, context).invoke(identity -> remember(token, identity));
    }

    private void remember(String token, SecurityIdentity identity) {
        if (token != null
                && identity != null
                && identity.getPrincipal() instanceof JsonWebToken parsed
                && !keptFor(parsed).isZero()) {

            verified.put(token, parsed);
        }
    }

    /** Until the token's exp, and no longer than {@link #LONGEST}; nothing for a token without exp. */
    private Duration keptFor(JsonWebToken parsed) {
        Duration untilExpiry = Duration.between(clock.instant(), Instant.ofEpochSecond(parsed.getExpirationTime()));
        if (parsed.getExpirationTime() <= 0 || untilExpiry.isNegative()) {
            return Duration.ZERO;
        }
        return untilExpiry.compareTo(LONGEST) < 0 ? untilExpiry : LONGEST;
    }

    /** What SmallRye JWT's provider makes of a token it verified, for this request. */
    private static SecurityIdentity identity(JsonWebToken parsed, TokenAuthenticationRequest request) {
        QuarkusSecurityIdentity.Builder identity = QuarkusSecurityIdentity.builder()
                .setPrincipal(parsed)
                .addCredential(request.getToken())
                .addRoles(parsed.getGroups())
                .addAttribute("quarkus.user", parsed);
        RoutingContext routing = HttpSecurityUtils.getRoutingContextAttribute(request);
        if (routing != null) {
            identity.addAttribute(RoutingContext.class.getName(), routing);
        }
        return identity.build();
    }
}
