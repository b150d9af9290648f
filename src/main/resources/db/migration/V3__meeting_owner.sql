-- Each meeting belongs to the caller that created it (the subject of the caller's token); no other caller sees it.
-- Meetings created before authentication existed belong to nobody a token can name.
alter table meeting add column owner varchar(255) not null default '';
alter table meeting alter column owner drop default;

-- GET /meetings pages through one caller's meetings ordered by start.
drop index meeting_starts_at_idx;
create index meeting_owner_starts_at_idx on meeting (owner, starts_at, id);
