package com.meetingreminders.limits;

import com.meetingreminders.security.Caller;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Every authenticated call counts toward its caller's requests a second, before its body is read. A call without a
 * valid token is left to the endpoint, which answers 401.
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

    @ServerRequestFilter
    public Uni<Void> countRequest() {
        return identities
                .getDeferredIdentity()
                .onFailure()
                .recoverWithNull()
                .flatMap(identity -> identity == null || identity.isAnonymous()
                        ? Uni.createFrom().voidItem()
                        : rate.admit(caller.id()));
    }
}
