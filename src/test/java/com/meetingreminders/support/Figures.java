package com.meetingreminders.support;

import com.meetingreminders.support.WebhookReceiver.Received;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/** What a fault test reports: reminders involved, delivered, duplicates and the largest lateness. */
public record Figures(int involved, long delivered, long duplicates, Duration largestLateness) {

    public static Figures of(int involved, Collection<Received> received) {
        Map<String, Long> counts =
                received.stream().collect(Collectors.groupingBy(Received::deliveryId, Collectors.counting()));
        Duration largest = received.stream()
                .map(r -> Duration.between(r.sendAt(), r.at()))
                .max(Duration::compareTo)
                .orElse(Duration.ZERO);
        return new Figures(involved, counts.size(), received.size() - counts.size(), largest);
    }

    /** Prints the figures under the scenario's name and returns them for assertions. */
    public Figures print(String scenario) {
        System.out.printf(
                "%s: %d reminders involved, %d delivered, %d duplicates, largest lateness %d ms%n",
                scenario, involved, delivered, duplicates, largestLateness.toMillis());
        return this;
    }
}
