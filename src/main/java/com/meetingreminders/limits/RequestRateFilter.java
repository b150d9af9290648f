package com.meetingreminders.limits;

import com.meetingreminders.security.Caller;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Every authenticated call counts toward its caller's requests a second, before its body is read. A call without a
 * valid token is left to the endpoint, which answers 401. The count runs on the request's event loop, before a blocking
 * endpoint moves to a worker thread: counted on the worker, a request went from it to Redis's client, back to the event
 * loop and then to a worker again.
 */
public class RequestRateFilter {

    private final CurrentIdentityAssociation identities;
    private final Caller caller;
    private final RequestRate rate;

    RequestRateFilter(CurrentIdentityAssociation identities, Caller caller, RequestRate rate) {
        this.identities = identities;
        this.caller = caller;
        this.rate = rate;
    }

    @ServerRequestFilter(nonBlocking = true)
    public Uni<Void> countRequest() {
        Context request = Vertx.currentContext();
        Uni<Void> counted = identities
                .getDeferredIdentity()
                .onFailure()
                .recoverWithNull()
                .flatMap(identity -> identity == null || identity.isAnonymous()
                        ? Uni.createFrom().voidItem()
                        : rate.admit(caller.id()));
        // Redis answers on a thread of its client's; the request goes on from the thread that completes this, and a
        // blocking endpoint would then run without the request's Vert.x context, which holds its trace context (the
        // span a reminder keeps as its traceparent, the ids in the log lines). Back on that context, it keeps them.
        return request == null ? counted : counted.emitOn(task -> request.runOnContext(ignored -> task.run()));
    }
}
