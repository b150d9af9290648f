-- One request of a caller against its rate (GCRA, the generic cell rate algorithm): the key holds when the caller's
-- next request is due (its theoretical arrival time, epoch microseconds); a request may come up to a burst's worth
-- early. Redis server time, so that every replica counts against the same clock.
-- KEYS[1] the caller's rate key
-- ARGV[1] microseconds between requests at the steady rate, ARGV[2] how early a request may come (burst) in µs
-- Returns 0 when the request may go ahead (and counts it), else the microseconds to wait.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local due = tonumber(redis.call('GET', KEYS[1]) or '0')
if due < now then
  due = now
end
local wait = due - tolerance - now
if wait > 0 then
  return math.ceil(wait)
end
local next = due + interval
-- %.0f: a Lua number given to Redis as is would be written as 1.7e+15 and lose its microseconds. The key goes once
-- the caller is back to a full burst.
redis.call('SET', KEYS[1], string.format('%.0f', next), 'PX', math.ceil((next - now) / 1000))
return 0
