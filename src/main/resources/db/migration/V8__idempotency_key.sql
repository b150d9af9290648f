-- The first answer to a create sent with an Idempotency-Key, kept 24 hours so that a repeat by the same caller gets it
-- again instead of creating a second meeting. Written in the transaction that creates the meeting(s): a meeting is
-- never committed without its answer. Holds no more than reminders.idempotency.max-keys-per-caller live rows per owner.
create table idempotency_key (
    owner        text          not null,
    key          varchar(255)  not null,
    -- SHA-256 of the operation and the request's canonical JSON: a repeat with another body is refused (422).
    request_hash bytea         not null,
    status       smallint      not null,
    -- 'Name: value' of each header the answer is replayed with (Location, ETag, Content-Type).
    headers      text[]        not null,
    body         bytea         not null,
    created_at   timestamptz   not null,
    primary key (owner, key)
);

-- Counting one caller's live keys against the cap.
create index idempotency_key_owner_created_at_idx on idempotency_key (owner, created_at);
-- The cleanup deletes what is older than 24 hours.
create index idempotency_key_created_at_idx on idempotency_key (created_at);
