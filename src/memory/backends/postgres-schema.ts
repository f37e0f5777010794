/**
 * The PostgreSQL tables of a memory store, in a schema of their own (default `interlingua_memory`),
 * and the append function. The append runs server-side as one statement: it takes the session
 * row's lock with an upsert (concurrent appends to a session wait their turn, other sessions do
 * not), numbers the events, inserts them and moves the session's counters, in one round trip.
 * Timestamps and eventIds follow the same rules as the other backends (ids.ts, backend.ts).
 * Payloads are stored as text, not jsonb, so they come back byte for byte as written.
 */
export const PG_SCHEMA_VERSION = 1;

/** Quoted schema name; callers check it against SCHEMA_NAME first. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function schemaSql(schema: string): string {
  const s = `"${schema}"`;
  return `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ${s}.sessions (
  id BIGSERIAL PRIMARY KEY,
  actor_id TEXT COLLATE "C" NOT NULL,
  session_id TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  last_seq BIGINT NOT NULL,
  last_ts BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  UNIQUE (actor_id, session_id)
);
CREATE INDEX IF NOT EXISTS sessions_expiry ON ${s}.sessions (expires_at);
CREATE TABLE IF NOT EXISTS ${s}.events (
  sid BIGINT NOT NULL,
  seq BIGINT NOT NULL,
  ts BIGINT NOT NULL,
  event_id TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  payload TEXT NOT NULL,
  metadata TEXT,
  PRIMARY KEY (sid, seq)
);
CREATE INDEX IF NOT EXISTS events_order ON ${s}.events (sid, ts, seq);
CREATE INDEX IF NOT EXISTS events_expiry ON ${s}.events (expires_at);
CREATE OR REPLACE FUNCTION ${s}.append_events(
  p_actor TEXT, p_session TEXT, p_now BIGINT, p_expires BIGINT, p_ts BIGINT[], p_payload TEXT[], p_metadata TEXT[]
) RETURNS TABLE (o_seq BIGINT, o_ts BIGINT, o_event_id TEXT) LANGUAGE plpgsql AS $fn$
DECLARE
  v_id BIGINT;
  v_seq BIGINT;
  v_last BIGINT;
  v_hex TEXT;
BEGIN
  -- The upsert locks the session row until the transaction ends; RETURNING gives its counters.
  INSERT INTO ${s}.sessions AS x (actor_id, session_id, created_at, last_seq, last_ts, expires_at)
    VALUES (p_actor, p_session, p_now, 0, 0, p_expires)
    ON CONFLICT (actor_id, session_id) DO UPDATE SET expires_at = GREATEST(x.expires_at, EXCLUDED.expires_at)
    RETURNING x.id, x.last_seq, x.last_ts INTO v_id, v_seq, v_last;
  FOR i IN 1 .. coalesce(array_length(p_payload, 1), 0) LOOP
    v_seq := v_seq + 1;
    o_seq := v_seq;
    o_ts := coalesce(p_ts[i], GREATEST(p_now, v_last));
    v_last := GREATEST(v_last, o_ts);
    v_hex := to_hex(v_seq);
    IF length(v_hex) < 8 THEN v_hex := lpad(v_hex, 8, '0'); END IF;
    o_event_id := lpad(o_ts::TEXT, 19, '0') || '#' || v_hex || substr(md5(random()::TEXT || clock_timestamp()::TEXT), 1, 8);
    INSERT INTO ${s}.events (sid, seq, ts, event_id, expires_at, payload, metadata)
      VALUES (v_id, o_seq, o_ts, o_event_id, p_expires, p_payload[i], p_metadata[i]);
    RETURN NEXT;
  END LOOP;
  UPDATE ${s}.sessions SET last_seq = v_seq, last_ts = v_last WHERE id = v_id;
END
$fn$;
`;
}
