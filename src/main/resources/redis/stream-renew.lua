-- Renews the leases of the streams a replica holds open. Adds a member that is missing, so that streams opened while
-- Redis was away, or before it lost its keys, count again.
-- KEYS each caller's open-streams ZSET, ARGV[1] lease ms, then the stream ids, one for each key
-- Returns the number renewed.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now + lease, ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[i], lease)
end
return #KEYS
