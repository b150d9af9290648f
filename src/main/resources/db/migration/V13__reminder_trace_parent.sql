-- The W3C traceparent of the request that planned the reminder (00-{trace id}-{span id}-{flags}), so that its
-- delivery, on whichever replica and however much later, joins that request's trace. Null for reminders planned
-- before tracing, or where there was no trace.
alter table reminder add column trace_parent varchar(55);
