-- A rotated webhook secret keeps signing for 24 hours next to the new one (decision 062): the
-- previous secret, sealed like the current one, and until when it is still sent.
ALTER TABLE "webhook_endpoints" ADD COLUMN "segredo_anterior_sealed" "bytea";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "segredo_anterior_ate" timestamp with time zone;
