CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"nome" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_tenant_id_unique" UNIQUE("tenant_id","id")
);
--> statement-breakpoint
DROP INDEX "contratos_tenant_paciente_idx";--> statement-breakpoint
ALTER TABLE "contratos" ADD COLUMN "pdf_file_id" uuid;--> statement-breakpoint
ALTER TABLE "contratos" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "contratos" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contratos" ADD COLUMN "signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contratos" ADD COLUMN "busca" text GENERATED ALWAYS AS (app_search_text(coalesce(titulo, '') || ' ' || coalesce(procedimento, '') || ' ' || coalesce(variaveis_preenchidas ->> 'paciente_nome', '') || ' ' || id::text)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contratos" ADD CONSTRAINT "contratos_pdf_file_fk" FOREIGN KEY ("tenant_id","pdf_file_id") REFERENCES "public"."files"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contratos_tenant_medico_idx" ON "contratos" USING btree ("tenant_id","medico_responsavel_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "contratos_tenant_status_idx" ON "contratos" USING btree ("tenant_id","status","expiracao_at");--> statement-breakpoint
CREATE INDEX "contratos_busca_trgm_idx" ON "contratos" USING gin ("busca" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contratos_tenant_paciente_idx" ON "contratos" USING btree ("tenant_id","paciente_id","created_at" DESC NULLS FIRST);