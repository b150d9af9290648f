package com.meetingreminders.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** How a webhook URL is read and matched against allow-list entries: plain logic, no application needed. */
class WebhookTargetTest {

    private static final WebhookAllowList LIST = new WebhookAllowList(List.of(
            "hooks.example.com:8443", "127.0.0.1:9000", "[::1]:8080", "open.example.org", "*.corp.example", "::2"));

    @ParameterizedTest(name = "{0} allowed: {1}")
    @CsvSource({
        "https://hooks.example.com:8443/x, true",
        "https://HOOKS.Example.COM:8443/x, true",
        "https://hooks.example.com/x, false",
        "http://hooks.example.com:8444/x, false",
        "http://127.0.0.1:9000/x, true",
        "http://127.0.0.1:9001/x, false",
        "http://[::1]:8080/x, true",
        "http://[0:0:0:0:0:0:0:1]:8080/x, true",
        "http://[::1]:8081/x, false",
        "http://[::ffff:127.0.0.1]:9000/x, true",
        "http://[::2]:1/x, true",
        "http://open.example.org/x, true",
        "https://open.example.org:65535/x, true",
        "http://a.corp.example/x, true",
        "http://corp.example/x, false",
        "http://a.corp.example.evil.test/x, false",
        "http://open.example.org.evil.test/x, false"
    })
    void matchesHostsAndPortsAsTheEntriesSay(String url, boolean allowed) throws Exception {
        assertThat(LIST.allows(WebhookTarget.parse(url))).isEqualTo(allowed);
        assertThat(LIST.allows(URI.create(url))).isEqualTo(allowed);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://open_example.org/x",
                "http://open.example.org./x",
                "http://127.0.0.1./x",
                "http://127.1/x",
                "http://0x7f.0.0.1/x",
                "http://0177.0.0.1/x",
                "http://2130706433/x",
                "http://127.0.0.01/x",
                "http://-open.example.org/x",
                "http://xn--bcher-kva.example.9/x"
            })
    void refusesEverySpellingOfAHostButTheCanonicalOne(String url) {
        assertThatThrownBy(() -> WebhookTarget.parse(url))
                .isInstanceOf(WebhookTarget.Invalid.class)
                .hasMessage(WebhookTarget.NOT_ALLOWED);
        assertThat(LIST.allows(URI.create(url))).isFalse();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://127.0.0.1:65536/x | must have a port from 1 to 65535",
                "http://127.0.0.1:0/x | must have a port from 1 to 65535",
                "http://127.0.0.1:1234567/x | must have a port from 1 to 65535",
                "http://u:p@127.0.0.1/x | must not carry a user name or password",
                "ftp://127.0.0.1/x | must be an absolute http or https URL",
                "mailto:a@example.com | must be an absolute http or https URL",
                "/relative | must be an absolute http or https URL",
                "http:///x | must be an absolute http or https URL",
                "http://bücher.example/x | must be printable ASCII: percent-encode other characters, and write an"
                        + " international host name in its xn-- form"
            })
    void saysWhatIsWrongWithAUrlThatIsNoTarget(String url, String reason) {
        assertThatThrownBy(() -> WebhookTarget.parse(url))
                .isInstanceOf(WebhookTarget.Invalid.class)
                .hasMessage(reason);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bad_host", "host:0", "host:65536", "host:x", "127.1", "*.", "*.0.1", "[::1", "a..b"})
    void refusesToStartWithAnEntryThatDoesNotParse(String entry) {
        assertThatThrownBy(() -> new WebhookAllowList(List.of(entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(entry);
    }

    @ParameterizedTest
    @ValueSource(ints = {2047, 2048, 2049})
    void takesUrlsUpTo2048Characters(int length) {
        String prefix = "http://open.example.org/";
        String url = prefix + "x".repeat(length - prefix.length());
        if (length <= WebhookTarget.MAX_LENGTH) {
            assertThat(LIST.allows(URI.create(url))).isTrue();
        } else {
            assertThatThrownBy(() -> WebhookTarget.parse(url)).hasMessage("must be at most 2,048 characters");
        }
    }
}
