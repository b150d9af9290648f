package com.meetingreminders.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * A real receiver as the deployment's default target ({@code reminders.webhook.url}), path {@code /default}, for the
 * tests of what goes there. Injected into fields marked {@link TestServers.Injected}.
 */
public class DefaultTarget implements QuarkusTestResourceLifecycleManager {

    public static final String PATH = "/default";

    private WebhookReceiver receiver;

    @Override
    public Map<String, String> start() {
        receiver = WebhookReceiver.start();
        return Map.of("reminders.webhook.url", receiver.url(PATH));
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(
                receiver, new TestInjector.AnnotatedAndMatchesType(TestServers.Injected.class, WebhookReceiver.class));
    }

    @Override
    public void stop() {
        receiver.close();
    }
}
