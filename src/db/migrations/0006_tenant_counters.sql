CREATE TABLE "tenant_counters" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"pacientes" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenant_counters" ADD CONSTRAINT "tenant_counters_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
GRANT SELECT ON tenant_counters TO consentir_app;
--> statement-breakpoint
ALTER TABLE tenant_counters ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON tenant_counters TO consentir_app
  USING (tenant_id = app_current_tenant());
--> statement-breakpoint
-- Statement-level triggers with transition tables: a bulk insert updates each counter once.
-- SECURITY DEFINER: the app role reads counters but never writes them directly.
CREATE OR REPLACE FUNCTION count_pacientes_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO tenant_counters (tenant_id, pacientes)
    SELECT tenant_id, count(*) FROM inserted GROUP BY tenant_id
  ON CONFLICT (tenant_id) DO UPDATE SET pacientes = tenant_counters.pacientes + excluded.pacientes;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_pacientes_deleted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  UPDATE tenant_counters c SET pacientes = c.pacientes - d.n
    FROM (SELECT tenant_id, count(*) AS n FROM deleted GROUP BY tenant_id) d
   WHERE c.tenant_id = d.tenant_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER pacientes_count_insert AFTER INSERT ON pacientes
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_pacientes_inserted();
--> statement-breakpoint
CREATE TRIGGER pacientes_count_delete AFTER DELETE ON pacientes
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION count_pacientes_deleted();
--> statement-breakpoint
INSERT INTO tenant_counters (tenant_id, pacientes)
  SELECT tenant_id, count(*) FROM pacientes GROUP BY tenant_id
ON CONFLICT (tenant_id) DO UPDATE SET pacientes = excluded.pacientes;
