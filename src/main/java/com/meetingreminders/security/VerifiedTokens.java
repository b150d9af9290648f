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
import io.quarkus.smallrye.jwt.runtime.auth.JsonWebTokenCredential;
import io.quarkus.smallrye.jwt.runtime.auth.MpJwtValidator;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Verifies a bearer token once a minute, not on every call: a client sends the same token until it expires, and parsing
 * it and checking its signature was 7% of the request threads' CPU under creates. SmallRye JWT verifies each token the
 * first time, as it would without this; a token it accepted is then known by its exact text for at most
 * {@link #LONGEST}, and never past the first instant SmallRye JWT would refuse it: its {@code exp} (without the clock
 * leeway SmallRye allows after it) or, with {@code mp.jwt.verify.token.age} set, its {@code iat} plus that age. A token
 * that failed is not remembered: it is checked again each time, and one character changed makes another token. Each
 * call still gets an identity of its own, built as SmallRye JWT builds it.
 */
// Caffeine picks a class by the cache's features: it builds SSMWA, a subclass of SSMW, which Quarkus does not register
// for a native image as it does the common ones.
@RegisterForReflection(
        classNames = {"com.github.benmanes.caffeine.cache.SSMW", "com.github.benmanes.caffeine.cache.SSMWA"})
@ApplicationScoped
public class VerifiedTokens implements IdentityProvider<TokenAuthenticationRequest> {

    /**
     * A token's verdict is kept no longer than this. SmallRye JWT reads a key set from a URL again only hourly by
     * default ({@code smallrye.jwt.jwks.refresh-interval}), so a key withdrawn from it is trusted at most a minute
     * longer than it would be anyway.
     */
    static final Duration LONGEST = Duration.ofMinutes(1);

    /** At most this many characters of tokens are kept, besides their parsed claims, however long the tokens are. */
    static final long MAX_CHARACTERS = 4L * 1024 * 1024;

    private final MpJwtValidator validator;
    private final Optional<Duration> tokenAge;
    private final Clock clock;
    private final Cache<String, JsonWebToken> verified;

    @Inject
    VerifiedTokens(MpJwtValidator validator, JWTAuthContextInfo verification, Clock clock) {
        this(validator, Optional.ofNullable(verification.getTokenAge()).map(Duration::ofSeconds), clock);
    }

    VerifiedTokens(MpJwtValidator validator, Optional<Duration> tokenAge, Clock clock) {
        this.validator = validator;
        this.tokenAge = tokenAge;
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
        if (!(request.getToken() instanceof JsonWebTokenCredential)) {
            // Not a bearer JWT: SmallRye JWT's provider declines it too, whatever its text.
            return Uni.createFrom().nullItem();
        }
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

    /**
     * Until SmallRye JWT would first refuse the token, and no longer than {@link #LONGEST}. SmallRye JWT requires exp
     * of every token, and iat when a token age is set.
     */
    private Duration keptFor(JsonWebToken parsed) {
        long refusedFrom = parsed.getExpirationTime();
        if (tokenAge.isPresent()) {
            refusedFrom = Math.min(
                    refusedFrom, parsed.getIssuedAtTime() + tokenAge.get().toSeconds());
        }
        Instant now = clock.instant();
        // In seconds first: an exp far beyond what an Instant holds is still a token to keep for the longest.
        long secondsLeft = refusedFrom - now.getEpochSecond();
        if (secondsLeft <= 0) {
            return Duration.ZERO;
        }
        if (secondsLeft >= LONGEST.toSeconds()) {
            return LONGEST;
        }
        return Duration.between(now, Instant.ofEpochSecond(refusedFrom));
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
