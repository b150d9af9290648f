package com.meetingreminders.security;

import com.meetingreminders.config.StartupRefusal;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.interceptor.Interceptor;
import java.util.List;
import org.eclipse.microprofile.config.Config;

/**
 * A replica without a key to verify bearer tokens would start and answer every call with 401, which looks like a
 * client's fault. It refuses to start instead, and says which setting is missing.
 */
// Before every other start-up step: nothing else should run with a setting that makes the replica useless.
@Startup(Interceptor.Priority.PLATFORM_BEFORE)
@ApplicationScoped
public class TokenKeyCheck {

    /** Where SmallRye JWT takes a verification key from; any one is enough (a JWKS URL goes in the location). */
    static final List<String> KEY_SETTINGS = List.of(
            "mp.jwt.verify.publickey.location",
            "mp.jwt.verify.publickey",
            "smallrye.jwt.verify.key.location",
            "smallrye.jwt.verify.secretkey");

    TokenKeyCheck(Config config) {
        boolean hasKey = KEY_SETTINGS.stream().anyMatch(key -> config.getOptionalValue(key, String.class)
                .filter(value -> !value.isBlank())
                .isPresent());
        if (!hasKey) {
            throw new StartupRefusal("No key to verify bearer tokens: set mp.jwt.verify.publickey.location"
                    + " (MP_JWT_VERIFY_PUBLICKEY_LOCATION: a PEM or JWK file, or the identity provider's JWKS URL) or"
                    + " mp.jwt.verify.publickey (the key itself); without one every call would be refused with 401");
        }
    }
}
