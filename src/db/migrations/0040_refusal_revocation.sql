-- Informed refusal and revocation (decision 056). A refused document gets the status 'recusado';
-- a revoked one stays 'signed' (its sealed PDF is never touched) and carries revogado_at. Each
-- refusal or revocation is one row of contrato_registros, sealed later by the 'document.choice_record' job.
ALTER TABLE "contratos" ADD COLUMN "recusado_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "contratos" ADD COLUMN "revogado_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "contrato_registros" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contrato_id" uuid NOT NULL,
	"tipo" text NOT NULL,
	"origem" text NOT NULL,
	"meio" text NOT NULL,
	"nome" text NOT NULL,
	"cpf" text,
	"motivo" text,
	"otp_verificado" boolean DEFAULT false NOT NULL,
	"registrado_por" uuid,
	"registrado_por_nome" text,
	"ocorrido_em" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"verification_code" text NOT NULL,
	"original_pdf_sha256" text,
	"original_verification_code" text,
	"pdf_file_id" uuid,
	"pdf_sha256" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contrato_registros_tipo_check" CHECK ("tipo" IN ('recusa', 'revogacao')),
	CONSTRAINT "contrato_registros_origem_check" CHECK ("origem" IN ('paciente', 'equipe')),
	CONSTRAINT "contrato_registros_meio_check" CHECK ("meio" IN ('link', 'presencial', 'telefone')),
	CONSTRAINT "contrato_registros_tipo_unique" UNIQUE("tenant_id","contrato_id","tipo"),
	CONSTRAINT "contrato_registros_code_unique" UNIQUE("verification_code")
);
--> statement-breakpoint
ALTER TABLE "contrato_registros" ADD CONSTRAINT "contrato_registros_contrato_fk" FOREIGN KEY ("tenant_id","contrato_id") REFERENCES "public"."contratos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contrato_registros" ADD CONSTRAINT "contrato_registros_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contrato_registros" ADD CONSTRAINT "contrato_registros_profile_fk" FOREIGN KEY ("registrado_por") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A refusal is evidence too (CFM Recomendação 1/2016): a refused document is kept like a signed
-- one. PostgreSQL has no time for it here (signed_at stays null), so it keeps it with no end;
-- the screens and routes count 20 years from recusado_at (src/shared/retention, decision 056).
CREATE OR REPLACE FUNCTION app_document_retained(p_status text, p_signed_at timestamptz) RETURNS boolean
  LANGUAGE sql STABLE AS $$
  SELECT p_status = 'recusado' OR (p_status = 'signed' AND (p_signed_at IS NULL OR p_signed_at + interval '20 years' > now()))
$$;
--> statement-breakpoint
-- A record is written once: only its sealed PDF may be filled in afterwards, once; and it goes
-- only with its document, when the document itself may go.
CREATE FUNCTION app_contrato_registros_guard() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  doc record;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT c.id, c.signed_at INTO doc FROM contratos c
      WHERE c.tenant_id = OLD.tenant_id AND c.id = OLD.contrato_id AND app_document_retained(c.status, c.signed_at);
    IF FOUND THEN
      PERFORM app_retention_refusal('o registro de recusa ou revogação', doc.id, doc.signed_at);
    END IF;
    RETURN OLD;
  END IF;
  IF (to_jsonb(NEW) - 'pdf_file_id' - 'pdf_sha256') IS DISTINCT FROM (to_jsonb(OLD) - 'pdf_file_id' - 'pdf_sha256')
     OR (OLD.pdf_file_id IS NOT NULL AND NEW.pdf_file_id IS DISTINCT FROM OLD.pdf_file_id)
     OR (OLD.pdf_sha256 IS NOT NULL AND NEW.pdf_sha256 IS DISTINCT FROM OLD.pdf_sha256) THEN
    RAISE EXCEPTION 'o registro de recusa ou revogação % não pode ser alterado', OLD.id
      USING ERRCODE = 'restrict_violation', CONSTRAINT = 'document_retention';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER contrato_registros_guard BEFORE UPDATE OR DELETE ON contrato_registros
  FOR EACH ROW EXECUTE FUNCTION app_contrato_registros_guard();
--> statement-breakpoint
ALTER TABLE contrato_registros ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON contrato_registros TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON contrato_registros TO consentir_app;
