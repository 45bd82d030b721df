CREATE TABLE "contrato_testemunhas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contrato_id" uuid NOT NULL,
	"ordem" smallint NOT NULL,
	"nome" text NOT NULL,
	"cpf" text NOT NULL,
	"email" text,
	"telefone" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contrato_testemunhas_tenant_id_unique" UNIQUE("tenant_id","id")
);
--> statement-breakpoint
DROP INDEX "contrato_partes_contrato_papel_unique";--> statement-breakpoint
ALTER TABLE "contrato_partes" ADD COLUMN "ordem" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_otps" ADD COLUMN "testemunha_id" uuid;--> statement-breakpoint
ALTER TABLE "signing_tokens" ADD COLUMN "testemunha_id" uuid;--> statement-breakpoint
ALTER TABLE "contrato_testemunhas" ADD CONSTRAINT "contrato_testemunhas_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contrato_testemunhas" ADD CONSTRAINT "contrato_testemunhas_contrato_fk" FOREIGN KEY ("tenant_id","contrato_id") REFERENCES "public"."contratos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contrato_testemunhas_ordem_unique" ON "contrato_testemunhas" USING btree ("tenant_id","contrato_id","ordem");--> statement-breakpoint
ALTER TABLE "signing_otps" ADD CONSTRAINT "signing_otps_testemunha_fk" FOREIGN KEY ("tenant_id","testemunha_id") REFERENCES "public"."contrato_testemunhas"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_tokens" ADD CONSTRAINT "signing_tokens_testemunha_fk" FOREIGN KEY ("tenant_id","testemunha_id") REFERENCES "public"."contrato_testemunhas"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contrato_partes_contrato_papel_ordem_unique" ON "contrato_partes" USING btree ("tenant_id","contrato_id","papel","ordem");--> statement-breakpoint
-- Witnesses (decision 021): a tenant table like every other, behind row-level security.
ALTER TABLE contrato_testemunhas ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON contrato_testemunhas TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON contrato_testemunhas TO consentir_app;
