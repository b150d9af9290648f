create table meeting (
    id            uuid primary key,
    title         varchar(200)  not null,
    starts_at     timestamptz   not null,
    time_zone     varchar(64)   not null,
    remind_before varchar(32)[] not null,
    attendees     varchar(320)[] not null,
    webhook_url   varchar(2048),
    version       bigint        not null,
    created_at    timestamptz   not null,
    updated_at    timestamptz   not null
);

-- GET /meetings pages through meetings ordered by start.
create index meeting_starts_at_idx on meeting (starts_at, id);

create sequence reminder_seq increment by 50;

create table reminder (
    id            bigint primary key default nextval('reminder_seq'),
    meeting_id    uuid         not null references meeting (id) on delete cascade,
    send_at       timestamptz  not null,
    remind_before varchar(32)  not null,
    status        varchar(16)  not null,
    attempts      integer      not null default 0,
    delivered_at  timestamptz,
    last_error    varchar(500),
    -- One reminder per meeting and send time: its delivery id is {meetingId}:{sendAt}.
    constraint reminder_meeting_send_at_key unique (meeting_id, send_at)
);

-- Reconciliation walks the reminders still to be sent.
create index reminder_scheduled_idx on reminder (send_at) where status = 'SCHEDULED';
