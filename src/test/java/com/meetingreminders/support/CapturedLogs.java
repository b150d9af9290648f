package com.meetingreminders.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;

/** The log lines the service writes under a category while a test runs, as a user would read them. */
public final class CapturedLogs extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    /** A line as written, with the MDC entries it carries (fields of their own in JSON logs). */
    public record Line(String text, Map<String, String> mdc) {}

    private CapturedLogs(String category) {
        this.logger = Logger.getLogger(category);
        logger.addHandler(this);
    }

    public static CapturedLogs of(String category) {
        return new CapturedLogs(category);
    }

    /** How many lines contain the text. */
    public long count(String text) {
        return containing(text).size();
    }

    /** The lines that contain the text. */
    public List<Line> containing(String text) {
        return lines.stream().filter(line -> line.text().contains(text)).toList();
    }

    @Override
    public void publish(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            lines.add(new Line(ext.getFormattedMessage(), ext.getMdcCopy()));
        } else {
            lines.add(new Line(record.getMessage(), Map.of()));
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
