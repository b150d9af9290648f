package com.meetingreminders.idempotency;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Creates sent with an {@code Idempotency-Key} (Stripe's and the IETF draft's header): per caller and for 24 hours, a
 * repeat of the same request gets the first answer again, byte for byte, with {@code Idempotent-Replayed: true}, and
 * creates nothing. "The same request" is the same operation with the same canonical body: the parsed request written as
 * JSON with its fields sorted and absent ones left out, so that whitespace and field order do not matter.
 */
@ApplicationScoped
public class IdempotentCreates {

    public static final String HEADER = "Idempotency-Key";

    /** OpenAPI text of the header, shared by both creates. */
    public static final String HEADER_DOC = "1 to 255 printable ASCII characters, chosen by the client (a UUID, say)."
            + " A repeat with the same key and body within 24 hours, on any replica, gets the first answer again with"
            + " Idempotent-Replayed: true and creates nothing. More than reminders.idempotency.max-keys-per-caller keys"
            + " within 24 hours is 429.";

    public static final String IN_USE_DOC =
            "The first request with this Idempotency-Key is still running; retry shortly";
    public static final String REUSED_DOC = "This Idempotency-Key came with another body or operation within 24 hours";
    public static final String REPLAYED_DOC = "true on the replay of an earlier answer to the same Idempotency-Key";

    private final AnswerLedger ledger;
    private final ObjectMapper json;
    private final ObjectMapper canonical;

    IdempotentCreates(AnswerLedger ledger, ObjectMapper json) {
        this.ledger = ledger;
        this.json = json;
        this.canonical = json.copy()
                .setSerializationInclusion(JsonInclude.Include.NON_NULL)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    }

    /**
     * The answer to a create: without a key, the create's own; with one, the first answer to that key, running the
     * create only if there is none yet.
     *
     * @param operation names the endpoint, so that a key used on one create is not replayed on the other
     * @param request the parsed body, whose canonical JSON tells a repeat from another request
     */
    public Response answer(String owner, String key, String operation, Object request, Supplier<Response> create) {
        if (key == null) {
            return create.get();
        }
        AnswerLedger.Outcome outcome = ledger.answerOnce(
                owner, key, fingerprint(operation, request), () -> StoredAnswer.of(create.get(), json));
        return outcome.answer().toResponse(outcome.replayed());
    }

    /**
     * SHA-256 of the operation, a line break and the request's canonical JSON. The request goes through maps first,
     * whose keys (unlike a record's fields) are written sorted, at every depth.
     */
    byte[] fingerprint(String operation, Object request) {
        try {
            Object maps = canonical.treeToValue(canonical.valueToTree(request), Object.class);
            byte[] body = canonical.writeValueAsBytes(maps);
            return IdempotencyStore.sha256(operation + "\n" + new String(body, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A request could not be written as JSON", e);
        }
    }
}
