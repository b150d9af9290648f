-- The deployment-wide delivery switch: one row. Every delivery round reads it under a share lock, and pausing updates
-- it, so a pause waits for the rounds under way and no round starts sending after a pause has committed.
create table delivery_pause (
    id     integer primary key check (id = 1),
    paused boolean not null,
    -- When the switch last changed; null while it never has.
    since  timestamptz
);
insert into delivery_pause (id, paused, since) values (1, false, null);

-- Each replica's last heartbeat and whether its own readiness was UP then: GET /admin/delivery lists them.
create table replica (
    id        varchar(255) primary key,
    ready     boolean     not null,
    last_seen timestamptz not null
);

-- GET /reminders lists reminders by status and send time, across every caller for an operator.
create index reminder_status_send_at_idx on reminder (status, send_at, id);
