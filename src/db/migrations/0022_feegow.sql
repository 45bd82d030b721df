CREATE TABLE "integracoes_feegow" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"token_encrypted" "bytea",
	"token_final" text,
	"status" text DEFAULT 'disconnected' NOT NULL,
	"integrations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_sync" timestamp with time zone,
	"last_error" text,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pacientes" ADD COLUMN "feegow_patient_id" integer;--> statement-breakpoint
ALTER TABLE "integracoes_feegow" ADD CONSTRAINT "integracoes_feegow_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integracoes_feegow" ADD CONSTRAINT "integracoes_feegow_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The clinic-system integration is tenant data: the same isolation as every other tenant table.
ALTER TABLE integracoes_feegow ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON integracoes_feegow TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON integracoes_feegow TO consentir_app;
