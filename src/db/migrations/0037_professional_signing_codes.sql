CREATE TABLE "professional_signing_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contrato_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "professional_signing_codes" ADD CONSTRAINT "professional_signing_codes_contrato_fk" FOREIGN KEY ("tenant_id","contrato_id") REFERENCES "public"."contratos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "professional_signing_codes" ADD CONSTRAINT "professional_signing_codes_profile_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "professional_signing_codes_idx" ON "professional_signing_codes" USING btree ("tenant_id","contrato_id","profile_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
-- The professional's signing codes (decision 042) are tenant data: the same isolation as every
-- other tenant table (0001, 0015).
ALTER TABLE professional_signing_codes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON professional_signing_codes TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON professional_signing_codes TO consentir_app;
