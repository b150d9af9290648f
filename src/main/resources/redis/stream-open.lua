-- Opens a stream for a caller if it has fewer open than its limit. Each open stream is a member of the caller's ZSET
-- scored by when its lease runs out; the replica that holds it renews the lease, so the streams of a replica that died
-- drop out here once their lease has run out.
-- KEYS[1] the caller's open-streams ZSET
-- ARGV[1] the limit, ARGV[2] lease ms, ARGV[3] the new stream's id
-- Returns 1 when opened, 0 when the caller is at its limit.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lease)
return 1
