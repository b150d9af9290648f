-- Renews the leases of one caller's streams that a replica holds open. Adds a member that is missing, so that streams
-- opened while Redis was away, or before it lost its keys, count again. One caller's key a call: in a cluster, the keys
-- of different callers lie in different slots, which one script may not touch together.
-- KEYS[1] the caller's open-streams ZSET, ARGV[1] lease ms, then the stream ids
-- Returns the number renewed.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], now + lease, ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], lease)
return #ARGV - 1
