package com.meetingreminders.meeting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.meetingreminders.http.InvalidBody;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validator;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.Set;

/**
 * Turns a merge patch into the whole request it stands for: the meeting as it is, as a request body, with the patch
 * applied, read and checked exactly as a PUT body is, so that PATCH and PUT share every rule.
 */
@ApplicationScoped
class MeetingPatcher {

    private final ObjectMapper json;
    private final Validator validator;

    MeetingPatcher(ObjectMapper json, Validator validator) {
        this.json = json;
        this.validator = validator;
    }

    MeetingRequest patched(Meeting meeting, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw new InvalidBody("body", "must be a JSON object");
        }
        ObjectNode current = json.valueToTree(MeetingRequest.of(meeting));
        // Absent is what null means in a merge patch: an optional field left out takes its default.
        current.properties().removeIf(member -> member.getValue().isNull());
        MeetingRequest request = read(MergePatch.apply(current, patch));
        Set<ConstraintViolation<MeetingRequest>> violations = validator.validate(request);
        if (!violations.isEmpty()) {
            throw new ConstraintViolationException(violations);
        }
        return request;
    }

    private MeetingRequest read(JsonNode merged) {
        try {
            return json.treeToValue(merged, MeetingRequest.class);
        } catch (JsonProcessingException e) {
            // Answered like a PUT body of the wrong shape: 400 naming the field.
            throw new WebApplicationException(e, Response.Status.BAD_REQUEST);
        }
    }
}
