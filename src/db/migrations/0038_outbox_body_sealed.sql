-- The outbox's text is kept sealed from now on (services/email/outbox-body.ts): it carries signing
-- links, codes, invitations and reset links that still work. Rows written before stay in clear
-- until the worker's sweep seals them (email_outbox_plain_idx finds them).
ALTER TABLE "email_outbox" ALTER COLUMN "text_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "body_sealed" "bytea";--> statement-breakpoint
CREATE INDEX "email_outbox_plain_idx" ON "email_outbox" USING btree ("id") WHERE "email_outbox"."text_body" is not null;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_body_kept" CHECK ("body_sealed" IS NOT NULL OR "text_body" IS NOT NULL);
