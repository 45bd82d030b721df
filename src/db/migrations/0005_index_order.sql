DROP INDEX "audit_events_tenant_created_idx";--> statement-breakpoint
DROP INDEX "email_outbox_tenant_created_idx";--> statement-breakpoint
DROP INDEX "pacientes_tenant_created_idx";--> statement-breakpoint
DROP INDEX "profiles_tenant_created_idx";--> statement-breakpoint
CREATE INDEX "audit_events_tenant_created_idx" ON "audit_events" USING btree ("tenant_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "email_outbox_tenant_created_idx" ON "email_outbox" USING btree ("tenant_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "pacientes_tenant_created_idx" ON "pacientes" USING btree ("tenant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "profiles_tenant_created_idx" ON "profiles" USING btree ("tenant_id","created_at" DESC NULLS FIRST);