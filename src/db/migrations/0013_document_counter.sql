ALTER TABLE "tenant_counters" ADD COLUMN "contratos" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Same statement-level counting as pacientes (migration 0006): the unfiltered documents total.
CREATE OR REPLACE FUNCTION count_contratos_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO tenant_counters (tenant_id, contratos)
    SELECT tenant_id, count(*) FROM inserted GROUP BY tenant_id
  ON CONFLICT (tenant_id) DO UPDATE SET contratos = tenant_counters.contratos + excluded.contratos;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_contratos_deleted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  UPDATE tenant_counters c SET contratos = c.contratos - d.n
    FROM (SELECT tenant_id, count(*) AS n FROM deleted GROUP BY tenant_id) d
   WHERE c.tenant_id = d.tenant_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contratos_count_insert AFTER INSERT ON contratos
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_contratos_inserted();
--> statement-breakpoint
CREATE TRIGGER contratos_count_delete AFTER DELETE ON contratos
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION count_contratos_deleted();
--> statement-breakpoint
INSERT INTO tenant_counters (tenant_id, contratos)
  SELECT tenant_id, count(*) FROM contratos GROUP BY tenant_id
ON CONFLICT (tenant_id) DO UPDATE SET contratos = excluded.contratos;
