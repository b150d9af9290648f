-- Puts reminders on the schedule. A member already there (leased, retrying or due) keeps its score. A member whose
-- send time is within the horizon gets its trigger key now; later ones get theirs from the sweep that reaches them,
-- and a retry gets none: the sweep takes it when its backoff has passed.
-- KEYS[1] schedule ZSET
-- ARGV[1] trigger key prefix, ARGV[2] horizon ms, then pairs of member and due time in epoch ms
-- Returns how many of the members added are already due.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local horizon = now + tonumber(ARGV[2])
local due = 0
for i = 3, #ARGV, 2 do
  local member, dueAt = ARGV[i], tonumber(ARGV[i + 1])
  if redis.call('ZADD', KEYS[1], 'NX', dueAt, member) == 1 then
    if dueAt <= now then
      due = due + 1
    elseif dueAt <= horizon and tonumber(string.match(member, ':(%d+)$')) == dueAt then
      redis.call('SET', ARGV[1] .. member, '', 'PXAT', dueAt)
    end
  end
end
return due
