CREATE TABLE "notice_reads" (
	"tenant_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"notice_key" text NOT NULL,
	"notice_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_reads_pk" PRIMARY KEY("tenant_id","profile_id","notice_key")
);
--> statement-breakpoint
CREATE TABLE "notice_user_states" (
	"tenant_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"read_all_at" timestamp with time zone,
	"visit_at" timestamp with time zone,
	"previous_visit_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_user_states_pk" PRIMARY KEY("tenant_id","profile_id")
);
--> statement-breakpoint
CREATE TABLE "system_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_user_states" ADD CONSTRAINT "notice_user_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_user_states" ADD CONSTRAINT "notice_user_states_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_notices" ADD CONSTRAINT "system_notices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "system_notices_tenant_created_idx" ON "system_notices" USING btree ("tenant_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "contratos_tenant_signed_idx" ON "contratos" USING btree ("tenant_id","signed_at" DESC NULLS FIRST) WHERE "contratos"."signed_at" is not null;--> statement-breakpoint
CREATE INDEX "email_outbox_tenant_failed_idx" ON "email_outbox" USING btree ("tenant_id","created_at" DESC NULLS FIRST) WHERE "email_outbox"."status" = 'failed';--> statement-breakpoint
-- Avisos (decision 028). What each user read, their visits, and the stored system notices are
-- tenant data: the same isolation as every other tenant table (0001, 0027).
ALTER TABLE notice_reads ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON notice_reads TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON notice_reads TO consentir_app;
--> statement-breakpoint
ALTER TABLE notice_user_states ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON notice_user_states TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON notice_user_states TO consentir_app;
--> statement-breakpoint
ALTER TABLE system_notices ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON system_notices TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON system_notices TO consentir_app;
--> statement-breakpoint
-- Live updates (decision 022): notices that appear or go away without a document changing
-- announce themselves as kind 'notice' (the row's id only); browsers refetch Avisos and its count.
-- A Feegow upload entering or leaving 'falhou' (a failure, "Tentar de novo").
CREATE TRIGGER feegow_uploads_notify_notice AFTER UPDATE ON feegow_uploads
  FOR EACH ROW WHEN ((OLD.status = 'falhou') IS DISTINCT FROM (NEW.status = 'falhou'))
  EXECUTE FUNCTION app_notify_row_change('notice');
--> statement-breakpoint
-- An e-mail given up on.
CREATE TRIGGER email_outbox_notify_notice AFTER UPDATE ON email_outbox
  FOR EACH ROW WHEN (NEW.status = 'failed' AND OLD.status IS DISTINCT FROM 'failed')
  EXECUTE FUNCTION app_notify_row_change('notice');
--> statement-breakpoint
-- A certificate added, removed or replaced.
CREATE TRIGGER certificados_notify_notice_insert AFTER INSERT ON certificados
  FOR EACH ROW EXECUTE FUNCTION app_notify_row_change('notice');
--> statement-breakpoint
CREATE TRIGGER certificados_notify_notice_update AFTER UPDATE ON certificados
  FOR EACH ROW WHEN ((OLD.is_active, OLD.vence_em) IS DISTINCT FROM (NEW.is_active, NEW.vence_em))
  EXECUTE FUNCTION app_notify_row_change('notice');
--> statement-breakpoint
CREATE TRIGGER system_notices_notify AFTER INSERT ON system_notices
  FOR EACH ROW EXECUTE FUNCTION app_notify_row_change('notice');
