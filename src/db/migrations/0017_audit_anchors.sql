CREATE TABLE "audit_anchors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"prev_mac" text NOT NULL,
	"mac" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_anchors" ADD CONSTRAINT "audit_anchors_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_anchors_tenant_seq_unique" ON "audit_anchors" USING btree ("tenant_id","seq");--> statement-breakpoint
-- Instance-wide, like audit_chain_heads: only the server's own role writes anchors; tenant
-- transactions never see or change them.
REVOKE ALL ON audit_anchors FROM consentir_app;
