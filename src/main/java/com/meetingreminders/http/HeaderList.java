package com.meetingreminders.http;

import java.util.ArrayList;
import java.util.List;

/** A header whose value is a list (RFC 9110, section 5.6.1), such as Accept or If-Match. */
public final class HeaderList {

    private HeaderList() {}

    /**
     * The list's members, trimmed, split at the commas outside quotes (a quoted value may hold one); the empty members
     * a list may hold ({@code a, , b}) are left out.
     */
    public static List<String> members(String header) {
        List<String> members = new ArrayList<>();
        StringBuilder member = new StringBuilder();
        boolean quoted = false;
        for (char c : header.toCharArray()) {
            if (c == ',' && !quoted) {
                addIfAny(members, member);
                continue;
            }
            quoted ^= c == '"';
            member.append(c);
        }
        addIfAny(members, member);
        return members;
    }

    private static void addIfAny(List<String> members, StringBuilder member) {
        String text = member.toString().strip();
        if (!text.isEmpty()) {
            members.add(text);
        }
        member.setLength(0);
    }
}
