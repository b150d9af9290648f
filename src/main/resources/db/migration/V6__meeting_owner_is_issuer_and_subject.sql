-- A meeting's owner is now the token's issuer and subject, "{iss}|{sub}" with '%' and '|' in each part escaped as
-- '%25' and '%7C' (security.Caller.idOf), instead of its principal name (upn, preferred_username or sub), which users
-- can change and others can then take; meetings made before owners existed have ''.
--
-- What an old owner was cannot be turned into an issuer and subject: the name may have been a upn, and the same name
-- at another issuer is someone else. Guessing would hand meetings to whoever holds that name now, the very borrowing
-- this change ends. So old owners become unreachable instead, provably: every id a token yields holds exactly one
-- '|', and every rewritten owner holds none ('unclaimed:' and the old name with '%' and '|' escaped). Their
-- reminders are still sent. An operator who knows whose a meeting was hands it over with
--   update meeting set owner = '{iss}|{sub}' where owner = 'unclaimed:{old name}';
alter table meeting alter column owner type varchar(1024);
update meeting set owner = 'unclaimed:' || replace(replace(owner, '%', '%25'), '|', '%7C');
