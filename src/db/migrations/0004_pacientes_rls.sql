GRANT SELECT, INSERT, UPDATE, DELETE ON pacientes TO consentir_app;
--> statement-breakpoint
ALTER TABLE pacientes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON pacientes TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
