-- A WhatsApp message that failed for good is sent again by SMS or e-mail, once: the channel it
-- fell back to ('sms', 'email', or 'nenhum' when neither could carry it). Decision 066.
ALTER TABLE "whatsapp_messages" ADD COLUMN "fallback" text;--> statement-breakpoint
-- Reenviar starts the reminder schedule again from its own time: the start of the document's
-- current reminder chain (null: the first send, sent_at). Decision 066.
ALTER TABLE "contratos" ADD COLUMN "lembretes_desde" timestamp with time zone;
