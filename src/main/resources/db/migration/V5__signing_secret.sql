-- Each caller's Standard Webhooks signing secret: it signs what goes to the caller's own webhookUrl, so that no
-- receiver can forge what another receives (the deployment's reminders.webhook.secret signs only the default target).
-- Made on first use (GET /signing-secret or the first send), with "insert ... on conflict do nothing", so replicas
-- that race keep one. The HMAC keys are stored as they are (the service must have them to sign): whoever can read
-- this table can sign as the service, so it is guarded like the deployment's own secret.
create table signing_secret (
    -- The caller's id: "{iss}|{sub}", escaped (security.Caller).
    owner               varchar(1024) primary key,
    -- 24 to 64 random bytes; the API shows them as whsec_ and their base64.
    secret              bytea         not null,
    created_at          timestamptz   not null,
    -- After a rotation, the secret before it keeps signing beside the new one until previous_expires_at.
    previous_secret     bytea,
    previous_expires_at timestamptz,
    constraint signing_secret_previous_expires check ((previous_secret is null) = (previous_expires_at is null))
);
