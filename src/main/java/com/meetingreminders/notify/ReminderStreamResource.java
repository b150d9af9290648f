package com.meetingreminders.notify;

import com.meetingreminders.limits.StreamSlots;
import com.meetingreminders.security.Caller;
import io.quarkus.security.Authenticated;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * GET /reminders/stream: server-sent events, one per delivered reminder (unnamed) and one per FAILED reminder (named
 * {@code reminder.failed}), the notification as data.
 */
@Path("/reminders/stream")
@Tag(name = "reminders")
@Authenticated
public class ReminderStreamResource {

    private final StreamChannel stream;
    private final StreamSlots slots;
    private final Caller caller;
    private final Clock clock;

    ReminderStreamResource(StreamChannel stream, StreamSlots slots, Caller caller, Clock clock) {
        this.stream = stream;
        this.slots = slots;
        this.caller = caller;
        this.clock = clock;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(
            summary =
                    "Live stream of the reminders of the caller's meetings as they are delivered, the notification JSON as"
                            + " each event's data",
            description = "A delivered reminder is an unnamed event (`message`). A reminder that ends FAILED is an"
                    + " event named `reminder.failed` instead, its data the notification plus `attempts` and"
                    + " `lastError`. The stream ends when the token it was opened with expires, or when the client falls 1,000"
                    + " events behind.")
    @APIResponse(
            responseCode = "200",
            description = "The stream: each event's data a notification (JSON)",
            content =
                    @Content(mediaType = MediaType.SERVER_SENT_EVENTS, schema = @Schema(implementation = String.class)))
    @APIResponse(responseCode = "429", description = "The caller has as many streams open as it may")
    // Taking the stream's place asks Redis, which is not done on the event loop.
    @Blocking
    public Multi<OutboundSseEvent> stream(@Context Sse sse) {
        String owner = caller.id();
        StreamSlots.Slot slot = slots.open(owner);
        // The stream ends when the token it was opened with expires (the client reconnects with a fresh one), or when
        // the client's announcements end, as they do when it falls too far behind. Either end is an empty item: a
        // merge completes only once all its streams have, and select().first(Duration) completes downstream without
        // cancelling its upstream, so that the client's place on the broadcast, and the replica's listening, outlived
        // the stream.
        Duration untilExpiry = Duration.between(clock.instant(), caller.tokenExpiresAt());
        Multi<Optional<Announcement>> expiry = Uni.createFrom()
                .item(Optional.<Announcement>empty())
                .onItem()
                .delayIt()
                .by(untilExpiry.isNegative() || untilExpiry.isZero() ? Duration.ofMillis(1) : untilExpiry)
                .toMulti();
        return Multi.createBy()
                .merging()
                .streams(
                        stream.announcements(owner)
                                .map(Optional::of)
                                .onCompletion()
                                .continueWith(Optional.empty()),
                        expiry)
                .select()
                .first(Optional::isPresent)
                .map(Optional::get)
                .onTermination()
                .invoke(slot::close)
                .map(announcement -> {
                    OutboundSseEvent.Builder event = sse.newEventBuilder().data(announcement.notification());
                    announcement.event().ifPresent(event::name);
                    return event.build();
                });
    }
}
