package com.meetingreminders.notify;

import com.meetingreminders.config.RemindersConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The hosts a per-meeting webhookUrl may point at ({@code reminders.webhook.allowed-hosts}): none unless the operator
 * names them, so that a caller cannot make the service post to an address inside its network. An entry is a host
 * name or IP literal, matched in {@link WebhookTarget}'s canonical form, or {@code *.example.com} for any host under
 * example.com; {@code :port} after it allows that port only, without one any port. The operator's default URL is
 * trusted and not checked. A host name on the list is reached only at an address of the internet, or at one the list
 * names as well ({@link #allowsAt}). Built at start, so that an entry that does not parse stops the replica there.
 */
@ApplicationScoped
@Startup
public class WebhookAllowList {

    private final List<Entry> entries;

    @Inject
    WebhookAllowList(RemindersConfig config) {
        this(config.webhook().allowedHosts().orElse(List.of()));
    }

    /** The list these entries make; an entry that does not parse is an {@link IllegalArgumentException}. */
    WebhookAllowList(List<String> allowedHosts) {
        this.entries = allowedHosts.stream()
                .map(String::trim)
                .filter(entry -> !entry.isEmpty())
                .map(Entry::parse)
                .toList();
    }

    /** Whether the URI is a webhook target (as {@link WebhookTarget} reads it) on the list. */
    public boolean allows(URI target) {
        try {
            return allows(WebhookTarget.of(target));
        } catch (WebhookTarget.Invalid notATarget) {
            return false;
        }
    }

    public boolean allows(WebhookTarget target) {
        return entries.stream().anyMatch(entry -> entry.matches(target));
    }

    /**
     * Whether a target allowed by its host name may be reached at this address, which its name resolved to: any
     * address of the internet, but an {@link InternalAddresses internal} one only where an entry names that address
     * (and the target's port). Otherwise a name the operator allows, or any name under an allowed {@code *.domain},
     * could be pointed at the service's own network by whoever controls its DNS.
     */
    boolean allowsAt(WebhookTarget target, InetAddress address) {
        return !InternalAddresses.isInternal(address)
                || allows(new WebhookTarget(target.scheme(), WebhookTarget.canonicalAddress(address), target.port()));
    }

    /** One entry: a canonical host, or {@code .example.com} for a wildcard; any port when none is named. */
    private record Entry(String host, boolean wildcard, OptionalInt port) {

        static Entry parse(String text) {
            String lower = text.toLowerCase(Locale.ROOT);
            String hostPart = lower;
            OptionalInt port = OptionalInt.empty();
            int colon = lower.lastIndexOf(':');
            boolean bareIpv6 = !lower.startsWith("[") && lower.indexOf(':') != colon;
            if (colon >= 0 && !bareIpv6 && colon > lower.lastIndexOf(']')) {
                hostPart = lower.substring(0, colon);
                port = OptionalInt.of(port(text, lower.substring(colon + 1)));
            }
            if (bareIpv6) {
                hostPart = "[" + hostPart + "]";
            }
            if (hostPart.startsWith("*.") && WebhookTarget.isDomainName(hostPart.substring(2))) {
                return new Entry(hostPart.substring(1), true, port);
            }
            String host = WebhookTarget.canonicalHost(hostPart);
            if (host == null) {
                throw invalid(text);
            }
            return new Entry(host, false, port);
        }

        boolean matches(WebhookTarget target) {
            boolean hostMatches =
                    wildcard ? target.host().endsWith(host) : target.host().equals(host);
            return hostMatches && (port.isEmpty() || port.getAsInt() == target.port());
        }

        private static int port(String entry, String digits) {
            if (!digits.matches("\\d{1,5}") || Integer.parseInt(digits) < 1 || Integer.parseInt(digits) > 65535) {
                throw invalid(entry);
            }
            return Integer.parseInt(digits);
        }

        private static IllegalArgumentException invalid(String entry) {
            return new IllegalArgumentException("reminders.webhook.allowed-hosts: '" + entry
                    + "' is not a host name, IPv4 address, [IPv6] address or *.domain, with an optional :port from 1"
                    + " to 65535");
        }
    }
}
