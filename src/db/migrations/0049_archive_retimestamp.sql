-- Archive re-time-stamping (decision 064): when the archive job should look at a sealed PDF again
-- (null: not read yet), and one row per revision it appended — a fresh DSS and document
-- time-stamp over the whole previous file, whose bytes stay a prefix of the new one.
ALTER TABLE "contratos" ADD COLUMN "carimbo_revisar_em" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "contrato_revisoes_pdf" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contrato_id" uuid NOT NULL,
	"revisao" integer NOT NULL,
	"file_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"anterior_sha256" text NOT NULL,
	"anterior_file_id" uuid NOT NULL,
	"motivo" text NOT NULL,
	"carimbo_em" timestamp with time zone NOT NULL,
	"autoridade" text,
	"autoridade_certificado_sha256" text,
	"autoridade_vence_em" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contrato_revisoes_pdf_motivo_check" CHECK ("motivo" IN ('vencimento', 'algoritmo')),
	CONSTRAINT "contrato_revisoes_pdf_revisao_check" CHECK ("revisao" >= 1),
	CONSTRAINT "contrato_revisoes_pdf_revisao_unique" UNIQUE("tenant_id","contrato_id","revisao"),
	CONSTRAINT "contrato_revisoes_pdf_anterior_unique" UNIQUE("tenant_id","contrato_id","anterior_sha256")
);
--> statement-breakpoint
ALTER TABLE "contrato_revisoes_pdf" ADD CONSTRAINT "contrato_revisoes_pdf_contrato_fk" FOREIGN KEY ("tenant_id","contrato_id") REFERENCES "public"."contratos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contrato_revisoes_pdf" ADD CONSTRAINT "contrato_revisoes_pdf_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contratos_carimbo_revisar_idx" ON "contratos" USING btree ("carimbo_revisar_em") WHERE "signed_pdf_file_id" IS NOT NULL;--> statement-breakpoint
-- The history is kept: a revision row is never changed (it goes only with its document).
CREATE FUNCTION app_contrato_revisoes_pdf_guard() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'as revisões do PDF selado não se alteram' USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER contrato_revisoes_pdf_guard BEFORE UPDATE ON contrato_revisoes_pdf
  FOR EACH ROW EXECUTE FUNCTION app_contrato_revisoes_pdf_guard();
--> statement-breakpoint
ALTER TABLE contrato_revisoes_pdf ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON contrato_revisoes_pdf TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON contrato_revisoes_pdf TO consentir_app;
--> statement-breakpoint
-- A retained document's sealed PDF may move only along a recorded archive revision: to the file a
-- contrato_revisoes_pdf row names as the successor of the current one (written first, in the same
-- transaction). Anything else is refused as before (0029).
CREATE OR REPLACE FUNCTION app_contratos_retention() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  archive_revision boolean;
BEGIN
  IF NOT app_document_retained(OLD.status, OLD.signed_at) THEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM app_retention_refusal('o registro', OLD.id, OLD.signed_at);
  END IF;
  archive_revision := OLD.signed_pdf_file_id IS NOT NULL AND OLD.signed_pdf_sha256 IS NOT NULL
    AND NEW.signed_pdf_file_id IS NOT NULL AND NEW.signed_pdf_sha256 IS NOT NULL
    AND EXISTS (
      SELECT 1 FROM contrato_revisoes_pdf r
       WHERE r.tenant_id = OLD.tenant_id AND r.contrato_id = OLD.id
         AND r.anterior_sha256 = OLD.signed_pdf_sha256 AND r.anterior_file_id = OLD.signed_pdf_file_id
         AND r.sha256 = NEW.signed_pdf_sha256 AND r.file_id = NEW.signed_pdf_file_id
    );
  IF NOT app_document_retained(NEW.status, NEW.signed_at)
     OR NEW.id IS DISTINCT FROM OLD.id
     OR NEW.tenant_id IS DISTINCT FROM OLD.tenant_id
     OR NEW.paciente_id IS DISTINCT FROM OLD.paciente_id
     OR NEW.documento IS DISTINCT FROM OLD.documento
     OR NEW.conteudo_sha256 IS DISTINCT FROM OLD.conteudo_sha256
     OR (NOT archive_revision AND OLD.signed_pdf_file_id IS NOT NULL AND NEW.signed_pdf_file_id IS DISTINCT FROM OLD.signed_pdf_file_id)
     OR (NOT archive_revision AND OLD.signed_pdf_sha256 IS NOT NULL AND NEW.signed_pdf_sha256 IS DISTINCT FROM OLD.signed_pdf_sha256)
     OR (OLD.verification_code IS NOT NULL AND NEW.verification_code IS DISTINCT FROM OLD.verification_code) THEN
    PERFORM app_retention_refusal('o conteúdo', OLD.id, OLD.signed_at);
  END IF;
  RETURN NEW;
END $$;
