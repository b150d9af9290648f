package com.meetingreminders.meeting;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** RFC 7386 JSON merge patch: what a patch names replaces, {@code null} removes, an object merges member by member. */
final class MergePatch {

    private MergePatch() {}

    /** The target with the patch applied; the target itself is left as it was. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode merged = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : ((ObjectNode) patch).objectNode();
        for (Map.Entry<String, JsonNode> member : patch.properties()) {
            if (member.getValue().isNull()) {
                merged.remove(member.getKey());
            } else {
                merged.set(member.getKey(), apply(merged.get(member.getKey()), member.getValue()));
            }
        }
        return merged;
    }
}
