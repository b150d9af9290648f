-- Where a meeting's failure notices go (same rules as webhook_url); null means the stream alone hears of a FAILED
-- reminder.
alter table meeting add column failure_webhook_url varchar(2048);

-- A FAILED reminder's notice (the stream event and the POST to failure_webhook_url) is owed until failure_noticed_at is
-- set. Whoever sends it first leases it (failure_notice_taken_until), so that a replica that died before or during the
-- send leaves it to another once the lease runs out, and two replicas never send it at once.
alter table reminder add column failure_noticed_at timestamptz;
alter table reminder add column failure_notice_taken_until timestamptz;

-- Reminders that failed before notices existed are owed nothing: their owners were never promised one.
update reminder set failure_noticed_at = now() where status = 'FAILED';

-- The periodic pass finds the notices still owed without reading every FAILED reminder.
create index reminder_failure_notice_owed_idx on reminder (id) where status = 'FAILED' and failure_noticed_at is null;
