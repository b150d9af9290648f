-- What a reminder has reached so far: 'webhook', and 'email:<address>' for each attendee. An attempt that fails on one
-- channel retries only what is missing, so a receiver that took the webhook does not get it again because an e-mail
-- failed.
alter table reminder add column sent_to varchar(330)[] not null default '{}';
