-- Tenant tables of the signing issue: the same isolation as every other tenant table.
ALTER TABLE signing_tokens ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON signing_tokens TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
ALTER TABLE contrato_partes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON contrato_partes TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
ALTER TABLE signing_otps ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON signing_otps TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
-- A signature, once recorded, is never changed or removed by the application.
REVOKE UPDATE, DELETE ON contrato_partes FROM consentir_app;
--> statement-breakpoint
-- Instance-wide tables: only the server's own role works them, never a tenant transaction.
REVOKE ALL ON jobs, seal_certificates, audit_chain_heads FROM consentir_app;
--> statement-breakpoint
-- Tenant work may enqueue jobs in its own transaction (never read or change them).
GRANT INSERT ON jobs TO consentir_app;
--> statement-breakpoint
-- The audit trail is append-only and hash-chained per tenant (DESIGN §3). The hash of an event
-- covers every column and the previous event's hash, computed by PostgreSQL itself.
CREATE FUNCTION app_audit_event_hash(e audit_events) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(json_build_array(
    e.prev_hash, e.seq, e.tenant_id, e.id, e.actor_profile_id, e.action, e.entity_type, e.entity_id,
    e.ip_address, e.user_agent, e.data::text,
    to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
  )::text, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
CREATE FUNCTION app_audit_chain_append() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  head_seq bigint;
  head_hash text;
BEGIN
  INSERT INTO audit_chain_heads (tenant_id, seq, hash) VALUES (NEW.tenant_id, 0, repeat('0', 64))
    ON CONFLICT (tenant_id) DO NOTHING;
  SELECT seq, hash INTO head_seq, head_hash FROM audit_chain_heads WHERE tenant_id = NEW.tenant_id FOR UPDATE;
  NEW.seq := head_seq + 1;
  NEW.prev_hash := head_hash;
  NEW.hash := app_audit_event_hash(NEW);
  UPDATE audit_chain_heads SET seq = NEW.seq, hash = NEW.hash WHERE tenant_id = NEW.tenant_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Events written before the chain existed join it in their order.
DO $$
DECLARE
  r audit_events;
BEGIN
  FOR r IN SELECT * FROM audit_events ORDER BY tenant_id, created_at, id LOOP
    INSERT INTO audit_chain_heads (tenant_id, seq, hash) VALUES (r.tenant_id, 0, repeat('0', 64))
      ON CONFLICT (tenant_id) DO NOTHING;
    SELECT seq + 1, hash INTO r.seq, r.prev_hash FROM audit_chain_heads WHERE tenant_id = r.tenant_id;
    r.hash := app_audit_event_hash(r);
    UPDATE audit_events SET seq = r.seq, prev_hash = r.prev_hash, hash = r.hash WHERE id = r.id;
    UPDATE audit_chain_heads SET seq = r.seq, hash = r.hash WHERE tenant_id = r.tenant_id;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_tenant_seq_unique" ON "audit_events" USING btree ("tenant_id","seq");
--> statement-breakpoint
CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION app_audit_chain_append();
--> statement-breakpoint
CREATE FUNCTION app_audit_events_append_only() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  -- Only the removal of a whole clinic (tenants ON DELETE CASCADE) may take its events along.
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM tenants WHERE id = OLD.tenant_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION app_audit_events_append_only();
--> statement-breakpoint
REVOKE UPDATE, DELETE ON audit_events FROM consentir_app;
--> statement-breakpoint
-- Checks a tenant's chain: every event's hash recomputed, every link to the previous event, no gap,
-- and the head matches the last event (nothing cut off the end). NULL when intact, else the first
-- sequence number that fails.
CREATE FUNCTION app_verify_audit_chain(p_tenant uuid) RETURNS bigint
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  WITH ordered AS (
    SELECT e.seq, e.hash, e.prev_hash, app_audit_event_hash(e) AS recomputed,
           lag(e.hash) OVER (ORDER BY e.seq) AS previous_hash,
           lag(e.seq) OVER (ORDER BY e.seq) AS previous_seq
    FROM audit_events e WHERE e.tenant_id = p_tenant
  ),
  broken AS (
    SELECT seq FROM ordered
    WHERE hash <> recomputed
       OR prev_hash <> coalesce(previous_hash, repeat('0', 64))
       OR seq <> coalesce(previous_seq, 0) + 1
  ),
  last_event AS (
    SELECT seq, hash FROM audit_events WHERE tenant_id = p_tenant ORDER BY seq DESC LIMIT 1
  ),
  tail AS (
    SELECT coalesce((SELECT seq FROM last_event), 0) + 1 AS seq FROM audit_chain_heads h
    WHERE h.tenant_id = p_tenant
      AND (h.seq <> coalesce((SELECT seq FROM last_event), 0)
           OR h.hash <> coalesce((SELECT hash FROM last_event), repeat('0', 64)))
  )
  SELECT min(seq) FROM (SELECT seq FROM broken UNION ALL SELECT seq FROM tail) AS failures
$$;
