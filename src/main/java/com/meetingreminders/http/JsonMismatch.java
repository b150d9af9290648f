package com.meetingreminders.http;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.time.Duration;
import java.time.temporal.TemporalAccessor;
import java.util.Collection;
import java.util.List;

/**
 * Where and how a well-formed body fails to match the JSON expected, said without echoing the input: the field by its
 * JSON path ({@code [3].title}, or {@code body} for the body as a whole) and what it must be. {@link MalformedJson}
 * says the same of a body that is no JSON at all.
 */
final class JsonMismatch {

    private JsonMismatch() {}

    static Problem.FieldError of(JsonMappingException mapping) {
        String field = mapping.getPath().isEmpty() ? "body" : jsonPathOf(mapping.getPath());
        String message = mapping instanceof UnrecognizedPropertyException
                ? "is not a known field"
                : mapping.getPath().isEmpty()
                        ? wholeBody(mapping)
                        : mapping instanceof MismatchedInputException mismatch
                                ? expected(mismatch.getTargetType())
                                : "has a value of the wrong type";
        return new Problem.FieldError(field, message);
    }

    private static String jsonPathOf(List<JsonMappingException.Reference> references) {
        StringBuilder field = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                field.append(field.isEmpty() ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                field.append('[').append(reference.getIndex()).append(']');
            }
        }
        return field.toString();
    }

    /** What the body as a whole must be: an array for a batch, one object for the rest. */
    private static String wholeBody(JsonMappingException mapping) {
        return mapping instanceof MismatchedInputException mismatch
                        && mismatch.getTargetType() != null
                        && Collection.class.isAssignableFrom(mismatch.getTargetType())
                ? "must be a JSON array"
                : "must be one JSON object";
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "has a value of the wrong type";
        }
        if (TemporalAccessor.class.isAssignableFrom(type)) {
            return "must be an ISO-8601 date-time with offset, such as 2026-11-23T09:00:00+08:00";
        }
        if (Duration.class.equals(type)) {
            return "must be an ISO-8601 duration, such as PT5M";
        }
        if (CharSequence.class.isAssignableFrom(type)) {
            return "must be a string";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "must be an array";
        }
        return "must be a JSON object";
    }
}
