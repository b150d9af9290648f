package com.meetingreminders.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Caller ids: one per (issuer, subject) pair, never the same for two pairs, and never without their one '|'. */
class CallerIdTest {

    @Test
    void readsAsTheIssuerAndTheSubject() {
        assertThat(Caller.idOf("https://idp.example.com", "248289761001"))
                .isEqualTo("https://idp.example.com|248289761001");
    }

    @Test
    void anIdTheDatabaseCannotKeepAsItIsIsRefused() {
        assertThat(Caller.storable("iss|alice\u0000x")).isFalse();
        assertThat(Caller.storable("iss|alice\uD800")).isFalse();
        assertThat(Caller.storable("iss|\uDC00alice")).isFalse();
        assertThat(Caller.storable("iss|\uDC00\uD800")).isFalse();
        assertThat(Caller.storable("iss|alice \uD83D\uDE00 \u0001\u007f")).isTrue();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = ' ',
            value = {
                // A plain join with '|' would give a|b|c for both.
                "a|b c a b|c",
                // An escape that left '%' alone would give a%7Cb|c for both.
                "a%7Cb c a|b c",
                "a b%7Cc a b|c",
                "% 25 %2 5",
            })
    void pairsThatANaiveJoinWouldConfuseGetDifferentIds(
            String issuer, String subject, String otherIssuer, String otherSubject) {
        assertThat(Caller.idOf(issuer, subject)).isNotEqualTo(Caller.idOf(otherIssuer, otherSubject));
    }

    /**
     * Every pair of parts over an alphabet rich in the characters the escaping deals with (every part of up to three
     * characters, and longer random ones): no two pairs share an id, and every id holds exactly one '|' (so owners that
     * hold none, as V6 writes the old ones, are no caller's).
     */
    @Test
    void noTwoPairsShareAnIdAndEachIdHoldsOneBar() {
        List<String> parts = new ArrayList<>();
        parts.add("");
        String alphabet = "a|%7C25";
        for (int length = 1; length <= 3; length++) {
            int count = (int) Math.pow(alphabet.length(), length);
            for (int n = 0; n < count; n++) {
                StringBuilder part = new StringBuilder();
                for (int k = 0, rest = n; k < length; k++, rest /= alphabet.length()) {
                    part.append(alphabet.charAt(rest % alphabet.length()));
                }
                parts.add(part.toString());
            }
        }
        Random random = new Random(10);
        for (int i = 0; i < 200; i++) {
            parts.add(randomPart(random, alphabet, 4 + random.nextInt(8)));
        }
        Map<String, String> pairOfId = new HashMap<>();
        for (String issuer : parts) {
            for (String subject : parts) {
                String id = Caller.idOf(issuer, subject);
                String pair = issuer + "\u0000" + subject;
                assertThat(pairOfId.putIfAbsent(id, pair)).as("id %s", id).isIn(null, pair);
                assertThat(id.chars().filter(c -> c == '|').count()).isEqualTo(1);
            }
        }
    }

    private static String randomPart(Random random, String alphabet, int length) {
        StringBuilder part = new StringBuilder();
        for (int i = 0; i < length; i++) {
            part.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return part.toString();
    }
}
