/**
 * The Lua scripts of the redis:// backend. Each runs atomically on the server, so an append (read
 * the session's counter, store its events, raise the expiries) needs no lock and concurrent
 * writers from any process serialize. Every script gets the key prefix as ARGV[1] and builds its
 * keys from it (single-node Redis; keys are not declared, so this is not Redis Cluster safe).
 *
 * Keys, with `id` = `actor|session` (neither identifier may contain `|`):
 * - `P s|id`      hash: created, seq (last sequence), ts (latest timestamp), exp (latest event expiry);
 * - `P e|id`      hash: sequence -> the event, `ts exp seq eventId metaLen\n<metadata><payload>`;
 * - `P o|id`      sorted set, every score 0, member `ts(16 digits)seq(12 digits)`: by-lex order is
 *                 (ts, seq) order, so a page starts strictly after a position with `(member`;
 * - `P x`         sorted set of every event by expiry, member `id|order member`;
 * - `P sx`        sorted set of sessions (`id`) by expiry; `P as|actor` the actor's sessions by expiry;
 * - `P actors`    sorted set of actors by their latest session expiry; `P meta` hash: version.
 * Numbers are formatted with %.0f: Lua's default formatting turns 15-digit timestamps into exponents.
 */

const KEYS_LUA = `
local P = ARGV[1]
local function sk(id) return P .. 's|' .. id end
local function ek(id) return P .. 'e|' .. id end
local function ok(id) return P .. 'o|' .. id end
local function num(x) return string.format('%.0f', x) end
local function ord(ts, seq) return string.format('%016.0f', ts) .. string.format('%012.0f', seq) end
local function expOf(v) return tonumber(string.match(v, '^%d+ (%d+) ')) end
-- An actor's score is the latest expiry of its sessions; it leaves with its last session.
local function fixActor(actor)
  local top = redis.call('ZREVRANGE', P .. 'as|' .. actor, 0, 0, 'WITHSCORES')
  if #top == 0 then redis.call('ZREM', P .. 'actors', actor)
  else redis.call('ZADD', P .. 'actors', top[2], actor) end
end
local function dropSession(actor, sess)
  local id = actor .. '|' .. sess
  redis.call('DEL', sk(id), ek(id), ok(id))
  redis.call('ZREM', P .. 'sx', id)
  redis.call('ZREM', P .. 'as|' .. actor, sess)
  fixActor(actor)
end
`;

/** ARGV: P, actor, session, now, expiresAt, n, then per event: ts ('' = none), random hex, tail. Returns seq, ts, eventId per event. */
export const APPEND_LUA = `${KEYS_LUA}
local actor, sess = ARGV[2], ARGV[3]
local now, exp, n = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local id = actor .. '|' .. sess
local st = redis.call('HMGET', sk(id), 'seq', 'ts', 'exp')
local seq, last, sexp = tonumber(st[1]), tonumber(st[2]), tonumber(st[3])
if not seq then
  seq, last, sexp = 0, 0, exp
  redis.call('HSET', sk(id), 'created', ARGV[4])
end
local out = {}
for i = 0, n - 1 do
  local b = 7 + i * 3
  seq = seq + 1
  local ts = math.max(now, last)
  if ARGV[b] ~= '' then ts = tonumber(ARGV[b]) end
  if ts > last then last = ts end
  local eid = string.format('%019.0f', ts) .. '#' .. string.format('%08x', seq) .. ARGV[b + 1]
  redis.call('HSET', ek(id), num(seq), num(ts) .. ' ' .. ARGV[5] .. ' ' .. num(seq) .. ' ' .. eid .. ' ' .. ARGV[b + 2])
  local om = ord(ts, seq)
  redis.call('ZADD', ok(id), 0, om)
  redis.call('ZADD', P .. 'x', ARGV[5], id .. '|' .. om)
  out[#out + 1] = num(seq)
  out[#out + 1] = num(ts)
  out[#out + 1] = eid
end
if exp > sexp then sexp = exp end
redis.call('HSET', sk(id), 'seq', num(seq), 'ts', num(last), 'exp', num(sexp))
redis.call('ZADD', P .. 'sx', num(sexp), id)
redis.call('ZADD', P .. 'as|' .. actor, num(sexp), sess)
redis.call('ZADD', P .. 'actors', 'GT', num(sexp), actor)
return out
`;

/** ARGV: P, actor, session, now, limit, '1' chronological | '0', after (order member or ''). Returns the live events' values. */
export const LIST_LUA = `${KEYS_LUA}
local id = ARGV[2] .. '|' .. ARGV[3]
local now, limit, asc, after = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6] == '1', ARGV[7]
local from = after ~= '' and ('(' .. after) or (asc and '-' or '+')
local to = asc and '+' or '-'
local want = math.max(limit, 64)
local out = {}
-- Expired events not yet purged are skipped, so read on until the page is full or the set ends.
while true do
  local batch
  if asc then batch = redis.call('ZRANGE', ok(id), from, to, 'BYLEX', 'LIMIT', 0, want)
  else batch = redis.call('ZRANGE', ok(id), from, to, 'BYLEX', 'REV', 'LIMIT', 0, want) end
  for _, m in ipairs(batch) do
    local v = redis.call('HGET', ek(id), num(tonumber(string.sub(m, 17))))
    if v and expOf(v) > now then
      out[#out + 1] = v
      if #out >= limit then return out end
    end
  end
  if #batch < want then return out end
  from = '(' .. batch[#batch]
end
`;

/** ARGV: P, actor. Returns sessionId, createdAt pairs of sessions whose expiry is after ARGV[3]. */
export const SESSIONS_LUA = `${KEYS_LUA}
local actor = ARGV[2]
local ids = redis.call('ZRANGEBYSCORE', P .. 'as|' .. actor, '(' .. ARGV[3], '+inf')
local out = {}
for _, s in ipairs(ids) do
  out[#out + 1] = s
  out[#out + 1] = redis.call('HGET', sk(actor .. '|' .. s), 'created') or '0'
end
return out
`;

/** ARGV: P, actor, session, seq, eventId, now. Returns -1 (no such event), 0 (it had expired) or 1. */
export const DELETE_EVENT_LUA = `${KEYS_LUA}
local actor, sess = ARGV[2], ARGV[3]
local id = actor .. '|' .. sess
local v = redis.call('HGET', ek(id), ARGV[4])
if not v then return -1 end
local ts, e, seq, eid = string.match(v, '^(%d+) (%d+) (%d+) (%S+) ')
if eid ~= ARGV[5] then return -1 end
local om = ord(tonumber(ts), tonumber(seq))
redis.call('HDEL', ek(id), ARGV[4])
redis.call('ZREM', ok(id), om)
redis.call('ZREM', P .. 'x', id .. '|' .. om)
-- The session's expiry stays the latest of its remaining events' (a scan: deletes are rare).
local max = nil
for _, w in ipairs(redis.call('HVALS', ek(id))) do
  local x = expOf(w)
  if max == nil or x > max then max = x end
end
if max == nil then dropSession(actor, sess)
else
  redis.call('HSET', sk(id), 'exp', num(max))
  redis.call('ZADD', P .. 'sx', num(max), id)
  redis.call('ZADD', P .. 'as|' .. actor, num(max), sess)
  fixActor(actor)
end
if tonumber(e) > tonumber(ARGV[6]) then return 1 end
return 0
`;

/** ARGV: P, actor, session, now. Returns how many live events the session had. */
export const DELETE_SESSION_LUA = `${KEYS_LUA}
local actor, sess = ARGV[2], ARGV[3]
local id = actor .. '|' .. sess
local now = tonumber(ARGV[4])
if redis.call('EXISTS', sk(id)) == 0 then return 0 end
local live = 0
for _, w in ipairs(redis.call('HVALS', ek(id))) do
  if expOf(w) > now then live = live + 1 end
end
for _, om in ipairs(redis.call('ZRANGE', ok(id), 0, -1)) do
  redis.call('ZREM', P .. 'x', id .. '|' .. om)
end
dropSession(actor, sess)
return live
`;

/** ARGV: P, now, batch. Removes up to `batch` expired events, then up to `batch` sessions that expired; returns both counts. */
export const PURGE_LUA = `${KEYS_LUA}
local now, batch = ARGV[2], tonumber(ARGV[3])
local gone = redis.call('ZRANGEBYSCORE', P .. 'x', '-inf', now, 'LIMIT', 0, batch)
for _, m in ipairs(gone) do
  local id, om = string.match(m, '^(.*)|(%d+)$')
  redis.call('HDEL', ek(id), num(tonumber(string.sub(om, 17))))
  redis.call('ZREM', ok(id), om)
  redis.call('ZREM', P .. 'x', m)
end
-- A session expires with its latest event, so a session expired here holds no events any more.
local ended = redis.call('ZRANGEBYSCORE', P .. 'sx', '-inf', now, 'LIMIT', 0, batch)
for _, id in ipairs(ended) do
  local actor, sess = string.match(id, '^([^|]*)|(.*)$')
  dropSession(actor, sess)
end
return { #gone, #ended }
`;
