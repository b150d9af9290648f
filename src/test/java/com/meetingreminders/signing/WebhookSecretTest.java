package com.meetingreminders.signing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which spellings of {@code reminders.webhook.secret} a replica starts with: whsec_ and the base64 of 24 to 64 bytes. */
class WebhookSecretTest {

    private static String whsec(int bytes) {
        return "whsec_" + Base64.getEncoder().encodeToString(new byte[bytes]);
    }

    @ParameterizedTest
    @ValueSource(ints = {24, 32, 64})
    void takesTheBase64OfTwentyFourToSixtyFourBytes(int bytes) {
        assertThat(WebhookSecret.parse(whsec(bytes)))
                .hasValueSatisfying(secret -> assertThat(secret.key()).hasSize(bytes));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 16, 23, 65, 128})
    void refusesOtherLengths(int bytes) {
        assertThat(WebhookSecret.parse(whsec(bytes))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "test-secret",
                // The right bytes without the prefix, or with another one.
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
                "whsek_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
                // Not base64: URL-safe letters, a space, a stray character.
                "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-_",
                "whsec_AAAAAAAAAAAAAAAAAAAAAAAA AAAAAAAAAAAAAAAAAAA=",
                "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=!",
                "whsec_",
                ""
            })
    void refusesWhatIsNotWhsecAndBase64(String text) {
        assertThat(WebhookSecret.parse(text)).isEmpty();
    }

    @Test
    void aNewSecretReadsBackAsItselfAndNeverShowsItsKeyInToString() {
        WebhookSecret secret = WebhookSecret.generate();

        assertThat(WebhookSecret.parse(secret.encoded()))
                .hasValueSatisfying(read -> assertThat(read.key()).isEqualTo(secret.key()));
        assertThat(secret.key()).hasSize(32);
        assertThat(secret.toString()).doesNotContain(secret.encoded().substring("whsec_".length()));
    }
}
