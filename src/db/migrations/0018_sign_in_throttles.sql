CREATE TABLE "sign_in_throttles" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttles_last_failure_idx" ON "sign_in_throttles" USING btree ("last_failure_at");--> statement-breakpoint
-- Instance-wide, like jobs (0015): only the server's own role works it, never a tenant transaction
-- (sign-in runs before there is a tenant). Default privileges of 0001 granted it to consentir_app.
REVOKE ALL ON sign_in_throttles FROM consentir_app;
