-- The clinic's audit trail anchored outside the operator (decision 072): an RFC 3161 time-stamp
-- token over the head of each clinic's audit chain, taken whenever the head moved (at most once an
-- hour). The token is over SHA-256 of the head hash's 32 bytes; the head hash covers every event up
-- to it. Rows are kept (never changed) and go only with their clinic.
CREATE TABLE "audit_trail_timestamps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"event_id" uuid NOT NULL,
	"hash" text NOT NULL,
	"token_der" bytea NOT NULL,
	"gen_time" timestamp with time zone NOT NULL,
	"tsa" text NOT NULL,
	"tsa_certificate_sha256" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_trail_timestamps_seq_check" CHECK ("seq" >= 1),
	CONSTRAINT "audit_trail_timestamps_hash_check" CHECK ("hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "audit_trail_timestamps" ADD CONSTRAINT "audit_trail_timestamps_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_trail_timestamps_tenant_seq_unique" ON "audit_trail_timestamps" USING btree ("tenant_id","seq");--> statement-breakpoint
CREATE INDEX "audit_trail_timestamps_tenant_created_idx" ON "audit_trail_timestamps" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE FUNCTION app_audit_trail_timestamps_guard() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'os carimbos do tempo da trilha de auditoria não se alteram' USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_trail_timestamps_guard BEFORE UPDATE ON audit_trail_timestamps
  FOR EACH ROW EXECUTE FUNCTION app_audit_trail_timestamps_guard();
--> statement-breakpoint
ALTER TABLE audit_trail_timestamps ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON audit_trail_timestamps TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
GRANT SELECT, INSERT ON audit_trail_timestamps TO consentir_app;
