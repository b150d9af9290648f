package com.meetingreminders.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Where and how a body stopped being JSON, said without echoing the input: the field is the path the parser had
 * reached ({@code [3].title}), or {@code body} at the top.
 */
final class MalformedJson {

    private MalformedJson() {}

    static Problem.FieldError of(JsonProcessingException e) {
        String field = e.getProcessor() instanceof JsonParser parser ? pathOf(parser.getParsingContext()) : "";
        return new Problem.FieldError(field.isEmpty() ? "body" : field, messageOf(e));
    }

    private static String messageOf(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            return "is nested too deeply, or holds a number or string too long to read";
        }
        if (String.valueOf(e.getOriginalMessage()).startsWith("Invalid UTF-8")) {
            return "is not valid UTF-8";
        }
        if (String.valueOf(e.getOriginalMessage()).startsWith("Duplicate field")) {
            return "must appear only once in its object";
        }
        return "is not well-formed JSON";
    }

    private static String pathOf(JsonStreamContext context) {
        Deque<Object> segments = new ArrayDeque<>();
        for (JsonStreamContext at = context; at != null && !at.inRoot(); at = at.getParent()) {
            if (at.inArray()) {
                segments.push(Math.max(at.getCurrentIndex(), 0));
            } else if (at.getCurrentName() != null) {
                segments.push(at.getCurrentName());
            }
        }
        StringBuilder field = new StringBuilder();
        for (Object segment : segments) {
            if (segment instanceof Integer index) {
                field.append('[').append(index).append(']');
            } else {
                field.append(field.isEmpty() ? "" : ".").append(segment);
            }
        }
        return field.toString();
    }
}
