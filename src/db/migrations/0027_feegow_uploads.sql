CREATE TABLE "feegow_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contrato_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"file_sha256" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"origem" text NOT NULL,
	"status" text DEFAULT 'pendente' NOT NULL,
	"feegow_patient_id" integer,
	"tentativas" integer DEFAULT 0 NOT NULL,
	"ultimo_erro" text,
	"motivo" text,
	"possivel_duplicata" boolean DEFAULT false NOT NULL,
	"envio_iniciado_at" timestamp with time zone,
	"enviado_at" timestamp with time zone,
	"requested_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "procedimentos" ADD COLUMN "feegow_procedimento_id" integer;--> statement-breakpoint
ALTER TABLE "procedimentos" ADD COLUMN "valor_centavos" integer;--> statement-breakpoint
ALTER TABLE "feegow_uploads" ADD CONSTRAINT "feegow_uploads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feegow_uploads" ADD CONSTRAINT "feegow_uploads_requested_by_profiles_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feegow_uploads" ADD CONSTRAINT "feegow_uploads_contrato_fk" FOREIGN KEY ("tenant_id","contrato_id") REFERENCES "public"."contratos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "feegow_uploads_idempotency_unique" ON "feegow_uploads" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "feegow_uploads_tenant_contrato_idx" ON "feegow_uploads" USING btree ("tenant_id","contrato_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "feegow_uploads_tenant_status_idx" ON "feegow_uploads" USING btree ("tenant_id","status","updated_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "procedimentos_tenant_feegow_unique" ON "procedimentos" USING btree ("tenant_id","feegow_procedimento_id") WHERE "procedimentos"."feegow_procedimento_id" is not null;--> statement-breakpoint
-- Uploads to the clinic system are tenant data: the same isolation as every other tenant table
-- (0001, 0022). The worker reads and updates them inside withTenant like request code does.
ALTER TABLE feegow_uploads ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON feegow_uploads TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON feegow_uploads TO consentir_app;
