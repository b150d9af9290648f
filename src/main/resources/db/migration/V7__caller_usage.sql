-- What each caller holds and has planned, for the fair-use limits (reminders.limits.*): kind 'meetings' (bucket at the
-- epoch) counts the meetings held, 'reminders' the reminders due in each UTC minute, 'emails' the e-mails their
-- reminders send in each UTC hour. Changed in the transaction that changes the meetings, so the counts are exactly
-- what was committed; a caller's changes take turns on its rows, so a limit holds across replicas.
create table caller_usage (
    owner  text         not null,
    kind   varchar(16)  not null,
    bucket timestamptz  not null,
    used   bigint       not null,
    primary key (owner, kind, bucket)
);

-- What is stored already counts. A reminder already due counts in the current minute and hour.
insert into caller_usage (owner, kind, bucket, used)
select owner, 'meetings', timestamptz 'epoch', count(*) from meeting group by owner;

insert into caller_usage (owner, kind, bucket, used)
select m.owner, 'reminders', date_trunc('minute', greatest(r.send_at, now()), 'UTC'), count(*)
from reminder r join meeting m on m.id = r.meeting_id
where r.status = 'SCHEDULED'
group by 1, 3;

insert into caller_usage (owner, kind, bucket, used)
select m.owner, 'emails', date_trunc('hour', greatest(r.send_at, now()), 'UTC'), sum(cardinality(m.attendees))
from reminder r join meeting m on m.id = r.meeting_id
where r.status = 'SCHEDULED'
group by 1, 3;
