CREATE TABLE "certificados" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"owner_profile_id" uuid,
	"alias" text NOT NULL,
	"descricao" text,
	"tipo" text DEFAULT 'A1' NOT NULL,
	"provider" text DEFAULT 'local' NOT NULL,
	"original_filename" text NOT NULL,
	"secret_encrypted" "bytea" NOT NULL,
	"cn" text NOT NULL,
	"subject" text NOT NULL,
	"issuer" text NOT NULL,
	"issuer_cn" text NOT NULL,
	"serial_number" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"vence_em" timestamp with time zone NOT NULL,
	"fingerprint_sha256" text NOT NULL,
	"key_usage" text[] DEFAULT '{}'::text[] NOT NULL,
	"icp_brasil" boolean DEFAULT false NOT NULL,
	"policies" text[] DEFAULT '{}'::text[] NOT NULL,
	"holder_kind" text NOT NULL,
	"cpf" text,
	"cnpj" text,
	"responsible_name" text,
	"linked_profile_id" uuid,
	"linked_clinic" boolean DEFAULT false NOT NULL,
	"chain_fingerprints" text[] DEFAULT '{}'::text[] NOT NULL,
	"expiry_warnings_sent" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"uploaded_by" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificados" ADD CONSTRAINT "certificados_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificados" ADD CONSTRAINT "certificados_owner_profile_id_profiles_id_fk" FOREIGN KEY ("owner_profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificados" ADD CONSTRAINT "certificados_linked_profile_id_profiles_id_fk" FOREIGN KEY ("linked_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificados" ADD CONSTRAINT "certificados_uploaded_by_profiles_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificados" ADD CONSTRAINT "certificados_removed_by_profiles_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificados_tenant_created_idx" ON "certificados" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "certificados_active_clinic_unique" ON "certificados" USING btree ("tenant_id") WHERE "certificados"."is_active" and "certificados"."owner_profile_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "certificados_active_professional_unique" ON "certificados" USING btree ("tenant_id","owner_profile_id") WHERE "certificados"."is_active" and "certificados"."owner_profile_id" is not null;--> statement-breakpoint
CREATE INDEX "certificados_active_expiry_idx" ON "certificados" USING btree ("vence_em") WHERE "certificados"."is_active";--> statement-breakpoint
-- A tenant table like the others (0001, 0015, 0022): request code sees only its clinic's
-- certificates. The expiry sweep reads across clinics as the server's own role.
ALTER TABLE certificados ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON certificados TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON certificados TO consentir_app;
