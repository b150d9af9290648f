package com.meetingreminders.support;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A meeting body as JSON text, member by member, each value written as raw JSON: so that a test can send what no
 * JSON library would write (lone surrogates, bare NaN, duplicate keys, trailing garbage). Valid, an hour ahead, unless
 * told otherwise.
 */
public final class JsonText {

    private final Map<String, String> members = new LinkedHashMap<>();

    private JsonText() {
        members.put("title", quoted("Weekly sync"));
        members.put("startsAt", quoted(Moments.now().plusSeconds(3600).toString()));
    }

    public static JsonText meeting() {
        return new JsonText();
    }

    /** The member with this raw JSON value; null removes it. */
    public JsonText raw(String name, String json) {
        if (json == null) {
            members.remove(name);
        } else {
            members.put(name, json);
        }
        return this;
    }

    /** The member as a JSON string whose content is {@code text} as written: escapes in it stay escapes. */
    public JsonText text(String name, String text) {
        return raw(name, quoted(text));
    }

    public String json() {
        return members.entrySet().stream()
                .map(member -> quoted(member.getKey()) + ":" + member.getValue())
                .collect(Collectors.joining(",", "{", "}"));
    }

    public byte[] bytes() {
        return json().getBytes(StandardCharsets.UTF_8);
    }

    public static String quoted(String text) {
        return "\"" + text + "\"";
    }
}
