-- When a failed reminder may be tried again. The database, not Redis, decides: a replica that takes an entry early
-- (a lease that ran out during a slow attempt, a re-arm after Redis lost its keys) waits until then.
alter table reminder add column next_attempt_at timestamptz;
