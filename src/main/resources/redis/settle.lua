-- Records what became of schedule entries. A finished entry (delivered, failed, skipped, cancelled, gone) leaves the
-- schedule with its trigger key and claim counter, so its timer cannot fire again. An unfinished one comes due again
-- after its delay: a retry's backoff, or at once for work a replica hands back.
-- KEYS[1] schedule ZSET
-- ARGV[1] trigger key prefix, ARGV[2] claim key prefix, then pairs of member and delay ms (-1 for finished)
-- Returns the number of entries settled.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for i = 3, #ARGV, 2 do
  local member, delay = ARGV[i], tonumber(ARGV[i + 1])
  if delay < 0 then
    redis.call('ZREM', KEYS[1], member)
    redis.call('DEL', ARGV[1] .. member, ARGV[2] .. member)
  else
    -- XX: an entry disarmed meanwhile stays gone.
    redis.call('ZADD', KEYS[1], 'XX', now + delay, member)
    redis.call('DEL', ARGV[2] .. member)
  end
end
return (#ARGV - 2) / 2
