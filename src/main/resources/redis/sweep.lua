-- One sweep of the schedule, run by every replica at least every sweeper interval:
-- 1. takes the entries that are due and leases each to the caller, so that each goes to one replica;
-- 2. gives trigger keys to the entries that came within the horizon since the last sweep, so that only reminders due
--    soon carry a TTL and Redis notices their expiry promptly;
-- 3. tells the caller when the earliest entry left is due, how many entries are due and left (all that are due when
--    it took none, as while delivery is paused), and whether the reconciled marker is still there.
-- KEYS[1] schedule ZSET, KEYS[2] armed-until (ms), KEYS[3] reconciled marker
-- ARGV[1] most entries to take, ARGV[2] lease ms, ARGV[3] grace ms, ARGV[4] horizon ms,
-- ARGV[5] trigger key prefix, ARGV[6] most trigger keys to give, ARGV[7] the caller's deadline in ms of Redis time (0
-- for none): a sweep Redis runs after it (it hung with the call in hand) has no caller left to deliver, and takes none
-- Returns {now ms, 1 if the marker exists else 0, score of the earliest entry or -1, due entries left, taken members...}
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local taken = {}
local limit = tonumber(ARGV[1])
local deadline = tonumber(ARGV[7])
if deadline > 0 and now > deadline then
  limit = 0
end
if limit > 0 then
  taken = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]), 'LIMIT', 0, limit)
  local leasedUntil = now + tonumber(ARGV[2])
  for _, member in ipairs(taken) do
    redis.call('ZADD', KEYS[1], 'XX', leasedUntil, member)
  end
end

local armedUntil = math.max(tonumber(redis.call('GET', KEYS[2]) or now), now)
local horizon = now + tonumber(ARGV[4])
if horizon > armedUntil then
  local maxTriggers = tonumber(ARGV[6])
  local entries = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. armedUntil, horizon, 'WITHSCORES', 'LIMIT', 0, maxTriggers)
  local reached = horizon
  for i = 1, #entries, 2 do
    local member, score = entries[i], tonumber(entries[i + 1])
    -- Only an entry still waiting for its send time gets a trigger; leases and retries are left to sweeps.
    if tonumber(string.match(member, ':(%d+)$')) == score then
      redis.call('SET', ARGV[5] .. member, '', 'PXAT', score)
    end
    reached = score
  end
  -- A full batch stops at its last score; entries beyond it at that same score go without a trigger, to the sweep.
  if #entries < 2 * maxTriggers then
    reached = horizon
  end
  redis.call('SET', KEYS[2], reached)
end

local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local nextDue = -1
if #head > 0 then
  nextDue = tonumber(head[2])
end
-- The entries just taken now score at their lease's end, so they are not counted.
local dueLeft = redis.call('ZCOUNT', KEYS[1], '-inf', now - tonumber(ARGV[3]))
local reply = {now, redis.call('EXISTS', KEYS[3]), nextDue, dueLeft}
for _, member in ipairs(taken) do
  reply[#reply + 1] = member
end
return reply
