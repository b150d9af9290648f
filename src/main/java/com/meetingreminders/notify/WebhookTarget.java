package com.meetingreminders.notify;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A webhook URL taken apart the one way that both the check on write and the check before sending use: scheme, host
 * in canonical form and effective port. A host is an LDH name ({@code hooks.example.com}), a dotted-quad IPv4 address
 * or a bracketed IPv6 address; every other spelling (underscores, a trailing dot, a raw IDN, IPv4 shorthand such as
 * {@code 127.1}, {@code 0x7f.0.0.1} or {@code 2130706433}) is refused, so that no two spellings of one address are
 * judged apart.
 */
public record WebhookTarget(String scheme, String host, int port) {

    /** Longest URL taken: longer ones are no webhook anyone configures, and a column or a log must hold it. */
    public static final int MAX_LENGTH = 2048;

    /** The answer for a host that is not on the allow-list, whether or not it parses. */
    public static final String NOT_ALLOWED =
            "must point at a host the operator allows (reminders.webhook.allowed-hosts)";

    private static final Pattern PRINTABLE_ASCII = Pattern.compile("[\\x21-\\x7e]*");
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern DOTTED_QUAD =
            Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    private static final Pattern HUGE_PORT = Pattern.compile(".*:\\d{6,}");
    /** The last label decides whether a host means to be an IPv4 address, as browsers read it (WHATWG URL). */
    private static final Pattern NUMERIC_LAST_LABEL = Pattern.compile("(?i)(.*\\.)?(0x[0-9a-f]*|\\d+)");

    /** Why a URL is not a webhook target; its message completes "webhookUrl ...". */
    public static final class Invalid extends Exception {
        Invalid(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The target the URL names, or {@link Invalid} saying what is wrong with it. */
    public static WebhookTarget parse(String url) throws Invalid {
        if (url.length() > MAX_LENGTH) {
            throw new Invalid("must be at most 2,048 characters");
        }
        if (!PRINTABLE_ASCII.matcher(url).matches()) {
            throw new Invalid("must be printable ASCII: percent-encode other characters, and write an international"
                    + " host name in its xn-- form");
        }
        try {
            return of(new URI(url));
        } catch (URISyntaxException e) {
            throw new Invalid("must be an absolute http or https URL");
        }
    }

    /** The target of a URI already parsed. */
    public static WebhookTarget of(URI uri) throws Invalid {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.isOpaque() || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new Invalid("must be an absolute http or https URL");
        }
        if (uri.getRawUserInfo() != null) {
            throw new Invalid("must not carry a user name or password");
        }
        if (uri.getRawAuthority() == null) {
            throw new Invalid("must be an absolute http or https URL");
        }
        // URI falls back to a registry-based authority, without host or port, when either does not parse.
        if (uri.getPort() == 0
                || uri.getPort() > 65535
                || HUGE_PORT.matcher(uri.getRawAuthority()).matches()) {
            throw new Invalid("must have a port from 1 to 65535");
        }
        String host = uri.getHost() == null ? null : canonicalHost(uri.getHost());
        if (host == null) {
            // No host spelt otherwise can be on the list, whose entries are canonical: the list's refusal is the
            // answer.
            throw new Invalid(NOT_ALLOWED);
        }
        return new WebhookTarget(scheme, host, uri.getPort() > 0 ? uri.getPort() : defaultPort(scheme));
    }

    /**
     * The host in the form allow-list entries are compared in: lower case; IPv6 bracketed in its full form, and an
     * IPv4-mapped one as the IPv4 address it is. Null when the host is none of the forms above.
     */
    static String canonicalHost(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        if (lower.startsWith("[") && lower.endsWith("]")) {
            return ipv6(lower.substring(1, lower.length() - 1));
        }
        if (NUMERIC_LAST_LABEL.matcher(lower).matches()) {
            return DOTTED_QUAD.matcher(lower).matches() ? lower : null;
        }
        return isLdhName(lower) ? lower : null;
    }

    /** Whether the host is an IP literal, reached without looking a name up. */
    public boolean isAddress() {
        return host.startsWith("[") || DOTTED_QUAD.matcher(host).matches();
    }

    /** An address in the form {@link #canonicalHost} gives its literal. */
    static String canonicalAddress(InetAddress address) {
        return address instanceof Inet6Address ? canonicalHost("[" + literal(address) + "]") : literal(address);
    }

    /** The address as an IP literal, without brackets, and without the zone id that names an interface of ours. */
    static String literal(InetAddress address) {
        String literal = address.getHostAddress();
        int zone = literal.indexOf('%');
        return zone < 0 ? literal : literal.substring(0, zone);
    }

    /** A name {@code *.name} may stand under: an LDH name that no one could read as an IPv4 address. */
    static boolean isDomainName(String name) {
        return isLdhName(name) && !NUMERIC_LAST_LABEL.matcher(name).matches();
    }

    static boolean isLdhName(String name) {
        if (name.isEmpty() || name.length() > 253) {
            return false;
        }
        for (String label : name.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }

    private static String ipv6(String literal) {
        // Zone ids name an interface of the sender, not a receiver; only hex digits and colons (and a trailing
        // dotted quad) reach the JDK, which then parses the literal without asking any resolver.
        if (literal.isEmpty() || !literal.matches("[0-9a-f:.]+") || !literal.contains(":")) {
            return null;
        }
        try {
            InetAddress address = InetAddress.getByName("[" + literal + "]");
            String text = address.getHostAddress();
            return text.contains(":") ? "[" + text + "]" : text;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : 80;
    }
}
