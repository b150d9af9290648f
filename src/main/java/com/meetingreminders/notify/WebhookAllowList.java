package com.meetingreminders.notify;

import com.meetingreminders.config.RemindersConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * The hosts a per-meeting webhookUrl may point at ({@code reminders.webhook.allowed-hosts}): none unless the operator
 * names them, so that a caller cannot make the service post to an address inside its network. An entry is a host
 * name or IP literal, matched exactly and case-insensitively, or {@code *.example.com} for any host under
 * example.com. The operator's default URL is trusted and not checked.
 */
@ApplicationScoped
public class WebhookAllowList {

    private final List<String> entries;

    WebhookAllowList(RemindersConfig config) {
        this.entries = config.webhook().allowedHosts().orElse(List.of()).stream()
                .map(String::trim)
                .filter(entry -> !entry.isEmpty())
                .map(entry -> entry.toLowerCase(Locale.ROOT))
                .toList();
    }

    public boolean allows(URI target) {
        String host = target.getHost();
        if (host == null) {
            return false;
        }
        String wanted = unbracketed(host.toLowerCase(Locale.ROOT));
        return entries.stream()
                .anyMatch(entry -> entry.startsWith("*.")
                        ? wanted.endsWith(entry.substring(1))
                        : wanted.equals(unbracketed(entry)));
    }

    /** IPv6 literals: URI gives {@code [::1]}, an operator may write {@code ::1}. */
    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
