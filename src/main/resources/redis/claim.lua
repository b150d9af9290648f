-- The event path's guard. Every replica hears each expiration and runs this for it: only the first INCR of a
-- member's claim counter may win, and only while the member is still due, so an entry a sweep already leased stays
-- with that sweep. The winner leases the entry: if it goes silent, a sweep takes the entry over when the lease ends.
-- KEYS[1] schedule ZSET
-- ARGV[1] claim key prefix, ARGV[2] lease ms, ARGV[3] the caller's deadline in ms of Redis time (0 for none), then the
-- members heard
-- Returns the members won: none past the deadline, when Redis hung with the call in hand and its caller is gone. The
-- claim counters are left alone then, so that a claim of another replica's still may win.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[2])
local won = {}
local deadline = tonumber(ARGV[3])
if deadline > 0 and now > deadline then
  return won
end
for i = 4, #ARGV do
  local member = ARGV[i]
  local claim = ARGV[1] .. member
  if redis.call('INCR', claim) == 1 then
    -- Short-lived, so that claim counters do not crowd the keys whose expiry Redis must notice.
    redis.call('PEXPIRE', claim, lease)
    local score = redis.call('ZSCORE', KEYS[1], member)
    if score and tonumber(score) <= now then
      redis.call('ZADD', KEYS[1], 'XX', now + lease, member)
      won[#won + 1] = member
    end
  end
end
return won
