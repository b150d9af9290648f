package com.meetingreminders.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.InetAddress;
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

    @ParameterizedTest(name = "{1} at {0}: {2}")
    @CsvSource({
        // Any address of the internet.
        "93.184.215.14, http://open.example.org/x, true",
        "2606:2800:21f:cb07:6820:80da:af6b:8b2c, http://a.corp.example/x, true",
        "100.63.255.255, http://open.example.org/x, true",
        "172.32.0.1, http://open.example.org/x, true",
        // Internal ones, in each of their forms, unless the list names the address with the target's port.
        "127.0.0.1, http://open.example.org/x, false",
        "127.0.0.1, http://open.example.org:9000/x, true",
        "::1, http://open.example.org:8080/x, true",
        "::1, http://open.example.org:8081/x, false",
        "::2, http://a.corp.example:1/x, true",
        "10.0.0.5, http://open.example.org/x, false",
        "172.16.0.1, http://open.example.org/x, false",
        "172.31.255.255, http://open.example.org/x, false",
        "192.168.1.20, http://a.corp.example/x, false",
        "169.254.169.254, http://open.example.org/x, false",
        "100.64.0.1, http://open.example.org/x, false",
        "0.0.0.0, http://open.example.org/x, false",
        "224.0.0.1, http://open.example.org/x, false",
        "255.255.255.255, http://open.example.org/x, false",
        "fe80::1, http://open.example.org/x, false",
        "fd00::1, http://open.example.org/x, false",
        "fc00::1, http://open.example.org/x, false",
        "::, http://open.example.org/x, false",
        "::ffff:10.0.0.5, http://open.example.org/x, false",
        "::ffff:127.0.0.1, http://open.example.org:9000/x, true",
        "64:ff9b::a9fe:a9fe, http://open.example.org/x, false",
        "64:ff9b::5db8:d70e, http://open.example.org/x, true",
        "64:ff9b:1::a00:5, http://open.example.org/x, false",
        "2002:a9fe:a9fe::1, http://open.example.org/x, false",
        "2002:5db8:d70e::1, http://open.example.org/x, true",
        "2001::1, http://open.example.org/x, false",
        "2001:db8::1, http://open.example.org/x, false",
        "::8.8.8.8, http://open.example.org/x, false",
        "192.0.2.1, http://open.example.org/x, false",
        "198.51.100.1, http://open.example.org/x, false",
        "203.0.113.1, http://open.example.org/x, false"
    })
    void reachesANameAtAnAddressOfTheInternetOrAtOneTheListNames(String address, String url, boolean allowed)
            throws Exception {
        // IP literals only: the JDK parses them without asking any resolver.
        assertThat(LIST.allowsAt(WebhookTarget.parse(url), InetAddress.getByName(address)))
                .isEqualTo(allowed);
    }

    @ParameterizedTest(name = "::ffff:{0} as an IPv6 address: {1}")
    @CsvSource({"10.0.0.5, false", "127.0.0.1, false", "93.184.215.14, true"})
    void readsAnIpv4MappedAddressThatAResolverGivesAsIpv6AsTheIpv4AddressItCarries(String ipv4, boolean allowed)
            throws Exception {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(InetAddress.getByName(ipv4).getAddress(), 0, mapped, 12, 4);

        assertThat(LIST.allowsAt(
                        WebhookTarget.parse("http://open.example.org/x"), Inet6Address.getByAddress(null, mapped, -1)))
                .isEqualTo(allowed);
    }
}
