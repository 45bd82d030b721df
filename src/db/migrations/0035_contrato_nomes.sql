CREATE TABLE "contrato_nomes" (
	"tenant_id" uuid NOT NULL,
	"paciente_id" uuid NOT NULL,
	"nome" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "contrato_nomes_pk" PRIMARY KEY("tenant_id","paciente_id","nome")
);
--> statement-breakpoint
ALTER TABLE "contrato_nomes" ADD CONSTRAINT "contrato_nomes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contrato_nomes_nome_trgm_idx" ON "contrato_nomes" USING gin ("nome" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contratos_titulo_busca_trgm_idx" ON "contratos" USING gin (app_search_text(coalesce("titulo", '') || ' ' || coalesce("procedimento", '')) gin_trgm_ops);--> statement-breakpoint
-- The names a documents search reads first (decision 036): per clinic, patient and frozen name (the
-- very text busca holds), how many documents carry it. Adds deltas in key order (no deadlocks
-- between two statements touching the same rows) and drops a name with its last document; a
-- clinic being deleted is skipped (its rows cascade).
CREATE OR REPLACE FUNCTION add_contrato_nome_deltas(deltas jsonb) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO contrato_nomes AS c (tenant_id, paciente_id, nome, n)
    SELECT (d->>'tenant_id')::uuid, (d->>'paciente_id')::uuid, d->>'nome', (d->>'n')::int
      FROM jsonb_array_elements(deltas) d
     WHERE (d->>'n')::int <> 0 AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = (d->>'tenant_id')::uuid)
     ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, paciente_id, nome) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM contrato_nomes c USING jsonb_array_elements(deltas) d
   WHERE (d->>'n')::int < 0 AND c.tenant_id = (d->>'tenant_id')::uuid AND c.paciente_id = (d->>'paciente_id')::uuid
     AND c.nome = d->>'nome' AND c.n <= 0;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contrato_nomes_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM add_contrato_nome_deltas(coalesce((
    SELECT jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'paciente_id', paciente_id, 'nome', nome, 'n', n))
      FROM (SELECT r.tenant_id, r.paciente_id, app_search_text(coalesce(r.variaveis_preenchidas ->> 'paciente_nome', '')) AS nome, count(*) AS n
              FROM inserted r GROUP BY 1, 2, 3) x
  ), '[]'::jsonb));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contrato_nomes_deleted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM add_contrato_nome_deltas(coalesce((
    SELECT jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'paciente_id', paciente_id, 'nome', nome, 'n', -n))
      FROM (SELECT r.tenant_id, r.paciente_id, app_search_text(coalesce(r.variaveis_preenchidas ->> 'paciente_nome', '')) AS nome, count(*) AS n
              FROM deleted r GROUP BY 1, 2, 3) x
  ), '[]'::jsonb));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Most updates (status, files, the expiry sweep) keep the clinic, patient and name: their +1 and
-- -1 cancel out in one hash aggregate (linear; transition tables have no index to join on), and
-- only the raw names left are normalised.
CREATE OR REPLACE FUNCTION contrato_nomes_updated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM add_contrato_nome_deltas(coalesce((
    SELECT jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'paciente_id', paciente_id, 'nome', nome, 'n', n))
      FROM (
        SELECT tenant_id, paciente_id, app_search_text(coalesce(raw, '')) AS nome, sum(n)::int AS n FROM (
          SELECT tenant_id, paciente_id, raw, sum(d) AS n FROM (
            SELECT r.tenant_id, r.paciente_id, r.variaveis_preenchidas ->> 'paciente_nome' AS raw, 1 AS d FROM new_rows r
            UNION ALL
            SELECT r.tenant_id, r.paciente_id, r.variaveis_preenchidas ->> 'paciente_nome' AS raw, -1 AS d FROM old_rows r
          ) moved GROUP BY 1, 2, 3 HAVING sum(d) <> 0
        ) by_raw GROUP BY 1, 2, 3 HAVING sum(n) <> 0
      ) x
  ), '[]'::jsonb));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contratos_nomes_insert AFTER INSERT ON contratos
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION contrato_nomes_inserted();
--> statement-breakpoint
CREATE TRIGGER contratos_nomes_delete AFTER DELETE ON contratos
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION contrato_nomes_deleted();
--> statement-breakpoint
CREATE TRIGGER contratos_nomes_update AFTER UPDATE ON contratos
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contrato_nomes_updated();
--> statement-breakpoint
INSERT INTO contrato_nomes (tenant_id, paciente_id, nome, n)
  SELECT tenant_id, paciente_id, app_search_text(coalesce(variaveis_preenchidas ->> 'paciente_nome', '')), count(*) FROM contratos GROUP BY 1, 2, 3;
--> statement-breakpoint
ALTER TABLE contrato_nomes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON contrato_nomes TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT ON contrato_nomes TO consentir_app;
