package com.meetingreminders.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;

/** The log lines the service writes under a category while a test runs, as a user would read them. */
public final class CapturedLogs extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private CapturedLogs(String category) {
        this.logger = Logger.getLogger(category);
        logger.addHandler(this);
    }

    public static CapturedLogs of(String category) {
        return new CapturedLogs(category);
    }

    /** How many lines contain the text. */
    public long count(String text) {
        return lines.stream().filter(line -> line.contains(text)).count();
    }

    @Override
    public void publish(LogRecord record) {
        lines.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
