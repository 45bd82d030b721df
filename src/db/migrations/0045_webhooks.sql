-- Webhooks (decision 062): a clinic's endpoints, and one delivery row per event and endpoint.
-- The secret is kept sealed with the instance key (it is needed to sign, so no hash will do).
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"url" text NOT NULL,
	"descricao" text,
	"eventos" text[] NOT NULL,
	"segredo_sealed" "bytea" NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL,
	"falhando_desde" timestamp with time zone,
	"desativado_em" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"evento" text NOT NULL,
	"corpo" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tentativas" integer DEFAULT 0 NOT NULL,
	"proxima_tentativa_em" timestamp with time zone,
	"tentar_ate" timestamp with time zone,
	"ultima_tentativa_em" timestamp with time zone,
	"ultimo_status_http" integer,
	"ultima_duracao_ms" integer,
	"ultimo_erro" text,
	"entregue_em" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'sending', 'delivered', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_tenant_idx" ON "webhook_endpoints" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON webhook_endpoints TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_endpoints TO consentir_app;
--> statement-breakpoint
ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON webhook_deliveries TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_deliveries TO consentir_app;
--> statement-breakpoint
CREATE FUNCTION app_webhook_time(t timestamptz) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
-- The one place events are emitted: every change of a document or patient writes its audit event
-- in the change's own transaction (decision 007), so the deliveries and their first jobs are
-- written there too — committed with the change, or not at all. The body carries ids, status and
-- times, never the document's text, title, procedure or the patient's data. SECURITY DEFINER:
-- the endpoints, deliveries and jobs are written whoever caused the event (the expiry sweep too).
CREATE FUNCTION app_webhook_enqueue() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  body_data jsonb;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM webhook_endpoints e WHERE e.tenant_id = NEW.tenant_id AND e.ativo AND NEW.action = ANY (e.eventos)
  ) THEN
    RETURN NULL;
  END IF;
  IF NEW.entity_type = 'contrato' THEN
    SELECT jsonb_build_object(
      'id', c.id,
      'status', c.status,
      'paciente_id', c.paciente_id,
      'modelo_versao_id', c.template_version_id,
      'medico_responsavel_id', c.medico_responsavel_id,
      'criado_em', app_webhook_time(c.created_at),
      'enviado_em', app_webhook_time(c.sent_at),
      'visualizado_em', app_webhook_time(c.viewed_at),
      'assinado_em', app_webhook_time(c.signed_at),
      'recusado_em', app_webhook_time(c.recusado_at),
      'revogado_em', app_webhook_time(c.revogado_at),
      'cancelado_em', app_webhook_time(c.cancelled_at),
      'expira_em', app_webhook_time(c.expiracao_at),
      'pdf_assinado_sha256', c.signed_pdf_sha256,
      'codigo_verificacao', c.verification_code
    ) INTO body_data
    FROM contratos c WHERE c.tenant_id = NEW.tenant_id AND c.id::text = NEW.entity_id;
  ELSIF NEW.entity_type = 'paciente' THEN
    SELECT jsonb_build_object(
      'id', p.id,
      'criado_em', app_webhook_time(p.created_at),
      'atualizado_em', app_webhook_time(p.updated_at)
    ) INTO body_data
    FROM pacientes p WHERE p.tenant_id = NEW.tenant_id AND p.id::text = NEW.entity_id;
  END IF;
  IF body_data IS NULL THEN
    RETURN NULL;
  END IF;
  WITH d AS (
    INSERT INTO webhook_deliveries (tenant_id, endpoint_id, evento, corpo, proxima_tentativa_em)
    SELECT e.tenant_id, e.id, NEW.action,
      jsonb_build_object('type', NEW.action, 'timestamp', app_webhook_time(NEW.created_at), 'data', body_data)::text,
      now()
    FROM webhook_endpoints e
    WHERE e.tenant_id = NEW.tenant_id AND e.ativo AND NEW.action = ANY (e.eventos)
    RETURNING id, tenant_id
  )
  INSERT INTO jobs (kind, payload, tenant_id, run_at, max_attempts)
  SELECT 'webhook.deliver', jsonb_build_object('deliveryId', d.id, 'attempt', 1), d.tenant_id, now(), 20 FROM d;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_webhooks AFTER INSERT ON audit_events
  FOR EACH ROW WHEN (NEW.action IN ('document.created', 'document.sent', 'document.viewed', 'document.signed',
    'document.refused', 'document.revoked', 'document.expired', 'document.cancelled', 'document.sealed',
    'patient.created', 'patient.updated'))
  EXECUTE FUNCTION app_webhook_enqueue();
