CREATE TABLE "document_counters" (
	"tenant_id" uuid NOT NULL,
	"bucket" text NOT NULL,
	"shard" smallint NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "document_counters_pk" PRIMARY KEY("tenant_id","bucket","shard")
);
--> statement-breakpoint
ALTER TABLE "document_counters" ADD CONSTRAINT "document_counters_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Documents counters kept by the database (issue 16): the buckets a document counts in.
CREATE OR REPLACE FUNCTION document_counter_buckets(p_status text, p_created timestamptz, p_signed timestamptz) RETURNS text[]
  LANGUAGE sql STABLE AS $$
  SELECT array_remove(ARRAY[
    'status:' || p_status,
    'criados:' || to_char(p_created AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM'),
    CASE WHEN p_status = 'signed' AND p_signed IS NOT NULL
      THEN 'assinados:' || to_char(p_signed AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM') END
  ], NULL)
$$;
--> statement-breakpoint
-- Adds per (clinic, bucket) deltas to this transaction's shard, in key order (no deadlocks between
-- two statements touching the same rows); a clinic being deleted is skipped (its rows cascade).
CREATE OR REPLACE FUNCTION add_document_counter_deltas(deltas jsonb) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO document_counters AS c (tenant_id, bucket, shard, n)
    SELECT (d->>'tenant_id')::uuid, d->>'bucket', (txid_current() % 8)::smallint, (d->>'n')::int
      FROM jsonb_array_elements(deltas) d
     WHERE (d->>'n')::int <> 0 AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = (d->>'tenant_id')::uuid)
     ORDER BY 1, 2
  ON CONFLICT (tenant_id, bucket, shard) DO UPDATE SET n = c.n + excluded.n;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_document_buckets_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM add_document_counter_deltas(coalesce((
    SELECT jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'bucket', b, 'n', n))
      FROM (SELECT r.tenant_id, b, count(*) AS n FROM inserted r, unnest(document_counter_buckets(r.status, r.created_at, r.signed_at)) b GROUP BY 1, 2) x
  ), '[]'::jsonb));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_document_buckets_deleted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM add_document_counter_deltas(coalesce((
    SELECT jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'bucket', b, 'n', -n))
      FROM (SELECT r.tenant_id, b, count(*) AS n FROM deleted r, unnest(document_counter_buckets(r.status, r.created_at, r.signed_at)) b GROUP BY 1, 2) x
  ), '[]'::jsonb));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_document_buckets_updated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM add_document_counter_deltas(coalesce((
    SELECT jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'bucket', b, 'n', n))
      FROM (
        SELECT tenant_id, b, sum(d)::int AS n FROM (
          SELECT r.tenant_id, b, 1 AS d FROM new_rows r, unnest(document_counter_buckets(r.status, r.created_at, r.signed_at)) b
          UNION ALL
          SELECT r.tenant_id, b, -1 AS d FROM old_rows r, unnest(document_counter_buckets(r.status, r.created_at, r.signed_at)) b
        ) all_deltas GROUP BY 1, 2 HAVING sum(d) <> 0
      ) x
  ), '[]'::jsonb));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contratos_buckets_insert AFTER INSERT ON contratos
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_document_buckets_inserted();
--> statement-breakpoint
CREATE TRIGGER contratos_buckets_delete AFTER DELETE ON contratos
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION count_document_buckets_deleted();
--> statement-breakpoint
CREATE TRIGGER contratos_buckets_update AFTER UPDATE ON contratos
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_document_buckets_updated();
--> statement-breakpoint
INSERT INTO document_counters (tenant_id, bucket, shard, n)
  SELECT r.tenant_id, b, 0, count(*) FROM contratos r, unnest(document_counter_buckets(r.status, r.created_at, r.signed_at)) b GROUP BY 1, 2;
--> statement-breakpoint
ALTER TABLE document_counters ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON document_counters TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT ON document_counters TO consentir_app;
