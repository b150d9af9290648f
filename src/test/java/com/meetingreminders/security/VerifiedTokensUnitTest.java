package com.meetingreminders.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.meetingreminders.support.Tokens;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.smallrye.jwt.runtime.auth.JsonWebTokenCredential;
import io.quarkus.smallrye.jwt.runtime.auth.MpJwtValidator;
import io.quarkus.smallrye.jwt.runtime.auth.SmallRyeJwtConfig;
import io.smallrye.jwt.auth.principal.DefaultJWTCallerPrincipalFactory;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

/**
 * What {@link VerifiedTokens} keeps, and for how long, against SmallRye JWT's real provider and parser with the
 * development key: how often that provider is asked tells whether a token was verified again.
 */
class VerifiedTokensUnitTest {

    private static final Instant NOW = Instant.now();

    private final CountingValidator validator = new CountingValidator();

    @Test
    void aTokenIsVerifiedOnceAndEachCallGetsTheSameIdentityAFirstCallGets() {
        VerifiedTokens tokens = tokens(Optional.empty(), NOW);
        String token = Tokens.operator("remembered");

        SecurityIdentity first = authenticate(tokens, token);
        SecurityIdentity second = authenticate(tokens, token);

        assertThat(validator.asked).hasValue(1);
        assertThat(second.getPrincipal().getName())
                .isEqualTo(first.getPrincipal().getName());
        assertThat(second.getRoles()).isEqualTo(first.getRoles()).contains(Tokens.OPERATORS_GROUP);
        // Each call's own credential, of the same token.
        assertThat(second.getCredentials()).hasSize(1).doesNotContainAnyElementsOf(first.getCredentials());
        assertThat(second.getCredential(TokenCredential.class).getToken()).isEqualTo(token);
        assertThat(second.getAttributes()).isEqualTo(first.getAttributes());
        assertThat(((JsonWebToken) second.getPrincipal()).getSubject()).isEqualTo("remembered");
    }

    @Test
    void aRefusedTokenIsVerifiedAgainEachTime() {
        VerifiedTokens tokens = tokens(Optional.empty(), NOW);
        String refused =
                Tokens.sign(Tokens.DEV_ISSUER, "late", NOW.minusSeconds(7200), NOW.minusSeconds(3600), Tokens.devKey());

        for (int call = 0; call < 2; call++) {
            assertThatThrownBy(() -> authenticate(tokens, refused)).isInstanceOf(AuthenticationFailedException.class);
        }
        assertThat(validator.asked).hasValue(2);
    }

    @Test
    void aTokenIsNotKeptFromItsExpOn() {
        Map<String, Object> claims = Tokens.claimsOf("expiring");
        String token = Tokens.sign(claims, Tokens.devKey());
        VerifiedTokens tokens = tokens(Optional.empty(), Instant.ofEpochSecond((Long) claims.get("exp")));

        authenticate(tokens, token);
        authenticate(tokens, token);

        assertThat(validator.asked).hasValue(2);
    }

    @Test
    void withATokenAgeATokenIsNotKeptOnceItIsThatOld() {
        Map<String, Object> claims = Tokens.claimsOf("aged");
        claims.put("iat", NOW.minusSeconds(600).getEpochSecond());
        String token = Tokens.sign(claims, Tokens.devKey());
        // Ten minutes old and allowed eleven: by this clock, its last second has gone.
        VerifiedTokens tokens = tokens(Optional.of(Duration.ofMinutes(11)), NOW.plusSeconds(60));

        authenticate(tokens, token);
        authenticate(tokens, token);

        assertThat(validator.asked).hasValue(2);
        VerifiedTokens younger = tokens(Optional.of(Duration.ofMinutes(11)), NOW);
        authenticate(younger, token);
        authenticate(younger, token);
        assertThat(validator.asked).hasValue(3);
    }

    @Test
    void aTokenThatIsNotABearerJwtIsLeftToOtherProviders() {
        VerifiedTokens tokens = tokens(Optional.empty(), NOW);
        String token = Tokens.of("bearer");
        authenticate(tokens, token);

        SecurityIdentity other = tokens.authenticate(
                        new TokenAuthenticationRequest(new TokenCredential(token, "other")), BLOCKING_INLINE)
                .await()
                .indefinitely();

        assertThat(other).isNull();
    }

    private VerifiedTokens tokens(Optional<Duration> tokenAge, Instant now) {
        return new VerifiedTokens(validator, tokenAge, Clock.fixed(now, ZoneOffset.UTC));
    }

    private static SecurityIdentity authenticate(VerifiedTokens tokens, String token) {
        return tokens.authenticate(new TokenAuthenticationRequest(new JsonWebTokenCredential(token)), BLOCKING_INLINE)
                .await()
                .indefinitely();
    }

    private static final AuthenticationRequestContext BLOCKING_INLINE =
            supplier -> Uni.createFrom().item(supplier);

    /** SmallRye JWT's provider, counting the tokens it is asked to verify. */
    private static final class CountingValidator extends MpJwtValidator {

        private static final DefaultJWTParser PARSER = new DefaultJWTParser(
                new JWTAuthContextInfo(Tokens.devPublicKey(), Tokens.DEV_ISSUER),
                new DefaultJWTCallerPrincipalFactory());

        final AtomicInteger asked = new AtomicInteger();

        CountingValidator() {
            super(PARSER, new SmallRyeJwtConfig() {
                @Override
                public boolean blockingAuthentication() {
                    return false;
                }

                @Override
                public boolean silent() {
                    return false;
                }
            });
        }

        @Override
        public Uni<SecurityIdentity> authenticate(
                TokenAuthenticationRequest request, AuthenticationRequestContext context) {
            asked.incrementAndGet();
            return super.authenticate(request, context);
        }
    }
}
