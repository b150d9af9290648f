-- A meeting may repeat: an RFC 5545 RRULE (without the RRULE: prefix) and the occurrences that do not take place.
alter table meeting add column recurrence varchar(500);
alter table meeting add column cancelled_occurrences timestamptz[] not null default '{}';
-- The rolling horizon of a series: occurrences starting before planned_until have their reminder rows; extend_at is
-- when the horizon step next plans further (null once the series is planned to its end, or for a one-off meeting).
alter table meeting add column planned_until timestamptz;
alter table meeting add column extend_at timestamptz;
create index meeting_extend_at_idx on meeting (extend_at) where extend_at is not null;

-- The occurrence (original start) a reminder belongs to; null for rows written before series existed, whose
-- occurrence is their meeting's start. (meeting_id, send_at) stays unique, and since send_at is occurrence minus
-- remind_before, it also keeps (meeting_id, occurrence, remind_before) unique: the horizon step cannot plan a reminder
-- twice, whichever replicas run it at once.
alter table reminder add column occurrence timestamptz;
