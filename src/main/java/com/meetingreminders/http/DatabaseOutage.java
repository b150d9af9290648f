package com.meetingreminders.http;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.hibernate.exception.JDBCConnectionException;

/** Tells a database that cannot be reached (worth a retry: 503) from a fault of ours (500). */
final class DatabaseOutage {

    private DatabaseOutage() {}

    static boolean causes(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JDBCConnectionException
                    || cause instanceof SQLTransientConnectionException
                    || cause instanceof ConnectException) {
                return true;
            }
            if (cause instanceof SQLException sql && isConnectionState(sql.getSQLState())) {
                return true;
            }
            // Agroal's answer when no connection could be had within the acquisition timeout.
            if (cause instanceof SQLException
                    && String.valueOf(cause.getMessage()).contains("acquisition timeout")) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    /** SQLState class 08 (connection exception) and PostgreSQL's shutdown states 57P01 to 57P03. */
    private static boolean isConnectionState(String state) {
        return state != null && (state.startsWith("08") || state.matches("57P0[123]"));
    }
}
