CREATE TABLE "clinic_logos" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"png" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"formato_original" text NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clinic_logos" ADD CONSTRAINT "clinic_logos_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_logos" ADD CONSTRAINT "clinic_logos_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clinic_logos_sha256_idx" ON "clinic_logos" USING btree ("sha256");--> statement-breakpoint
-- The clinic's logo (issue 13) is tenant data: the same isolation as every other tenant table.
-- The public signing page reads it by its SHA-256 as the owner role (no tenant is known there).
ALTER TABLE clinic_logos ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON clinic_logos TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON clinic_logos TO consentir_app;
