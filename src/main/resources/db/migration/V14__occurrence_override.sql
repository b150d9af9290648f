-- One occurrence of a series moved: its original start (RECURRENCE-ID, its identity) and where it now takes place.
-- Cancelled occurrences stay in meeting.cancelled_occurrences; a row here is only ever a move.
create table occurrence_override (
    meeting_id uuid not null references meeting (id) on delete cascade,
    occurrence timestamptz not null,
    starts_at timestamptz not null,
    primary key (meeting_id, occurrence)
);
