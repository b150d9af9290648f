-- Requests of a caller against its rate (GCRA, the generic cell rate algorithm): the key holds when the caller's
-- next request is due (its theoretical arrival time, epoch microseconds); a request may come up to a burst's worth
-- early. Redis server time, so that every replica counts against the same clock. Several requests are counted as if
-- they came one after another at this instant: as many as fit go ahead, and the rest are refused. When all go ahead,
-- up to ARGV[4] more are counted ahead, for the replica to let the caller's next requests through without a call,
-- but only as many as leave the caller half its burst. The replica gives back, with its next call for the caller, those
-- of its last call's that the caller did not send in time (ARGV[5]): they come off the due time before anything is
-- counted, so that a caller pays only for the requests it sent. Only as much comes off as still lies ahead of the
-- clock from the due time that last call left (ARGV[6]): the rest, the clock has passed, and a caller back to its full
-- burst was forgiven it already.
-- KEYS[1] the caller's rate key
-- ARGV[1] microseconds between requests at the steady rate, ARGV[2] how early a request may come (burst) in µs,
-- ARGV[3] how many requests, ARGV[4] the most requests to count ahead, ARGV[5] how many counted ahead to give back,
-- ARGV[6] the due time the call that counted them left (µs)
-- Returns {how many go ahead (counted), the microseconds the others must wait (0 when none is refused), how many
-- were counted ahead, the due time this call left (µs)}.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local requests = tonumber(ARGV[3])
local mostAhead = tonumber(ARGV[4] or '0')
local givenBack = tonumber(ARGV[5] or '0')
local leftDue = tonumber(ARGV[6] or '0')
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
local due = stored
if givenBack > 0 then
  due = due - math.min(givenBack * interval, math.max(0, leftDue - now))
end
if due < now then
  due = now
end
-- The k-th request (from 0) goes ahead while due + k * interval - tolerance <= now.
local fit = math.floor((now + tolerance - due) / interval) + 1
local admitted = math.max(0, math.min(requests, fit))
local next = due + admitted * interval
local ahead = 0
if admitted == requests and mostAhead > 0 then
  ahead = math.max(0, math.min(mostAhead, math.floor((now + tolerance / 2 - next) / interval)))
  next = next + ahead * interval
end
if admitted > 0 or next ~= stored then
  -- Also when all are refused, for what was given back. %.0f: a Lua number given to Redis as is would be written as
  -- 1.7e+15 and lose its microseconds. The key goes once the caller is back to a full burst.
  redis.call('SET', KEYS[1], string.format('%.0f', next), 'PX', math.ceil((next - now) / 1000))
end
if admitted == requests then
  return {admitted, 0, ahead, next}
end
return {admitted, math.ceil(next - tolerance - now), 0, next}
