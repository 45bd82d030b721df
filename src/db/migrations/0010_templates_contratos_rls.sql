GRANT SELECT, INSERT, UPDATE, DELETE ON templates TO consentir_app;
--> statement-breakpoint
ALTER TABLE templates ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON templates TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON template_versions TO consentir_app;
--> statement-breakpoint
ALTER TABLE template_versions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON template_versions TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON contratos TO consentir_app;
--> statement-breakpoint
ALTER TABLE contratos ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON contratos TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
-- Template versions are immutable (spec part 2 §4): only the publication stamp may be set.
CREATE FUNCTION app_template_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.template_id IS DISTINCT FROM OLD.template_id
     OR NEW.tenant_id IS DISTINCT FROM OLD.tenant_id
     OR NEW.version_number IS DISTINCT FROM OLD.version_number
     OR NEW.conteudo_html IS DISTINCT FROM OLD.conteudo_html
     OR NEW.variaveis_json IS DISTINCT FROM OLD.variaveis_json
     OR NEW.changelog IS DISTINCT FROM OLD.changelog
     OR NEW.hash_modelo IS DISTINCT FROM OLD.hash_modelo
     OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
    RAISE EXCEPTION 'template versions are immutable' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER template_versions_immutable BEFORE UPDATE ON template_versions
  FOR EACH ROW EXECUTE FUNCTION app_template_versions_immutable();
