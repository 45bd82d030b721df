CREATE TABLE "backup_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dia" date NOT NULL,
	"status" text NOT NULL,
	"arquivo" text,
	"bytes" bigint,
	"mensagem" text,
	"removidos" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "backup_runs_dia_idx" ON "backup_runs" USING btree ("dia" DESC NULLS LAST,"finished_at" DESC NULLS LAST);--> statement-breakpoint
-- Instance-wide, like jobs and audit_anchors: only the server's own role (the worker) writes and
-- reads backup runs; tenant transactions never see them.
REVOKE ALL ON backup_runs FROM consentir_app;
