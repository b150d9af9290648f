package com.meetingreminders.support;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * A real SMTP server (GreenMail) on a free loopback port, and e-mail to attendees turned on: for the e-mail tests,
 * which read what arrived. Injected into fields marked {@link TestServers.Injected}.
 */
public class MailServer implements QuarkusTestResourceLifecycleManager {

    private GreenMail smtp;

    @Override
    public Map<String, String> start() {
        // A fixed port, not a dynamic one: a test that stops the server starts it again where the service expects it.
        smtp = new GreenMail(new ServerSetup(Replica.freePort(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        return Map.of(
                "quarkus.mailer.host", "127.0.0.1",
                "quarkus.mailer.port", Integer.toString(smtp.getSmtp().getPort()),
                "quarkus.mailer.mock", "false",
                // Two connections, each closed after its message: a test of a hanging server counts them.
                "quarkus.mailer.max-pool-size", "2",
                "quarkus.mailer.keep-alive", "false",
                "reminders.email.timeout", "2s",
                "reminders.email.enabled", "true");
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(
                smtp, new TestInjector.AnnotatedAndMatchesType(TestServers.Injected.class, GreenMail.class));
    }

    @Override
    public void stop() {
        smtp.stop();
    }
}
