package com.meetingreminders.notify;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * Addresses that reach this host or the network it sits in rather than the internet: loopback, private (RFC 1918 and
 * IPv6 unique local), link-local (where cloud metadata services answer), shared (RFC 6598), unspecified, multicast,
 * reserved, documentation; IPv6 forms that carry such an IPv4 address (mapped, NAT64, 6to4), and those that reach
 * IPv4 through a tunnel or translator of the local network (compatible, local-use NAT64, Teredo). A webhook host's name
 * that resolves to one of them reaches it only where the operator names the address itself.
 */
final class InternalAddresses {

    private InternalAddresses() {}

    static boolean isInternal(InetAddress address) {
        if (address.isAnyLocalAddress()
                || address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isMulticastAddress()) {
            return true;
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            return isInternalIpv4(bytes);
        }
        if (address instanceof Inet6Address) {
            return isInternalIpv6(bytes);
        }
        return true;
    }

    private static boolean isInternalIpv4(byte[] bytes) {
        int first = bytes[0] & 0xff;
        int second = bytes[1] & 0xff;
        int third = bytes[2] & 0xff;
        return first == 0 // "this network"
                || first == 10
                || first == 127
                || (first == 100 && second >= 64 && second <= 127) // shared address space, carrier-grade NAT
                || (first == 169 && second == 254)
                || (first == 172 && second >= 16 && second <= 31)
                || (first == 192 && second == 168)
                || (first == 192 && second == 0 && (third == 0 || third == 2)) // IETF protocol, documentation
                || (first == 198 && (second == 18 || second == 19)) // benchmarking
                || (first == 198 && second == 51 && third == 100) // documentation
                || (first == 203 && second == 0 && third == 113) // documentation
                || first >= 224; // multicast, reserved, broadcast
    }

    private static boolean isInternalIpv6(byte[] bytes) {
        if ((bytes[0] & 0xfe) == 0xfc // unique local, fc00::/7
                || startsWith(bytes, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) // IPv4-compatible and the rest of ::/96
                || startsWith(bytes, 0, 0x64, 0xff, 0x9b, 0, 1) // NAT64 for local use, 64:ff9b:1::/48
                || startsWith(bytes, 0x20, 0x01, 0, 0) // Teredo, 2001::/32
                || startsWith(bytes, 0x20, 0x01, 0x0d, 0xb8)) { // documentation, 2001:db8::/32
            return true;
        }
        if (startsWith(bytes, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff) // IPv4-mapped, ::ffff:0:0/96
                || startsWith(bytes, 0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0)) { // NAT64, 64:ff9b::/96
            return isInternalIpv4(Arrays.copyOfRange(bytes, 12, 16));
        }
        if (startsWith(bytes, 0x20, 0x02)) { // 6to4, 2002::/16, whose next 32 bits are an IPv4 address
            return isInternalIpv4(Arrays.copyOfRange(bytes, 2, 6));
        }
        return false;
    }

    private static boolean startsWith(byte[] bytes, int... prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xff) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
