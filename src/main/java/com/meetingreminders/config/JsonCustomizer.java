package com.meetingreminders.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MutableCoercionConfig;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.deser.DurationDeserializer;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;

/**
 * Strict JSON: a value of the wrong type is an error, not something to coerce ({@code 5} is not the title "5"), a key
 * given twice in one object is an error rather than the last one winning, and durations are written as ISO-8601 text. Unknown fields are refused by {@code quarkus.jackson.fail-on-unknown-properties}.
 */
@Singleton
public class JsonCustomizer implements ObjectMapperCustomizer {

    /** Last, so that these deserializers win over the JavaTimeModule Quarkus registers. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        refuse(
                mapper,
                LogicalType.Textual,
                CoercionInputShape.Integer,
                CoercionInputShape.Float,
                CoercionInputShape.Boolean);
        // Nor is "true", "" or 1 a boolean, "5" or "" a number, or 5.7 a whole number to be cut to 5.
        refuse(
                mapper,
                LogicalType.Boolean,
                CoercionInputShape.String,
                CoercionInputShape.EmptyString,
                CoercionInputShape.Integer,
                CoercionInputShape.Float);
        refuse(
                mapper,
                LogicalType.Integer,
                CoercionInputShape.String,
                CoercionInputShape.EmptyString,
                CoercionInputShape.Boolean,
                CoercionInputShape.Float);
        refuse(
                mapper,
                LogicalType.Float,
                CoercionInputShape.String,
                CoercionInputShape.EmptyString,
                CoercionInputShape.Boolean);
        // Epoch numbers are not instants with an offset, and 300 is not a duration: both are written as text.
        mapper.registerModule(new SimpleModule("text-only-time")
                .addDeserializer(
                        OffsetDateTime.class, textOnly(OffsetDateTime.class, InstantDeserializer.OFFSET_DATE_TIME))
                .addDeserializer(Duration.class, textOnly(Duration.class, DurationDeserializer.INSTANCE)));
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);
        mapper.disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE);
    }

    private static void refuse(ObjectMapper mapper, LogicalType type, CoercionInputShape... shapes) {
        MutableCoercionConfig config = mapper.coercionConfigFor(type);
        for (CoercionInputShape shape : shapes) {
            config.setCoercion(shape, CoercionAction.Fail);
        }
    }

    private static <T> JsonDeserializer<T> textOnly(Class<T> type, JsonDeserializer<T> parser) {
        return new StdScalarDeserializer<>(type) {
            @Override
            @SuppressWarnings("unchecked")
            public T deserialize(JsonParser json, DeserializationContext context) throws IOException {
                if (!json.hasToken(JsonToken.VALUE_STRING)) {
                    return (T) context.handleUnexpectedToken(type, json);
                }
                // The parsers trim what String.trim takes, NUL and other control characters included: refuse those.
                if (json.getText().chars().anyMatch(Character::isISOControl)) {
                    return (T) context.handleWeirdStringValue(type, json.getText(), "control character");
                }
                // And they read an empty or blank text as null, as if the field had not been given.
                if (json.getText().isBlank()) {
                    return (T) context.handleWeirdStringValue(type, json.getText(), "empty");
                }
                return parser.deserialize(json, context);
            }
        };
    }
}
