ALTER TABLE "contrato_partes" ADD COLUMN "nivel_assinatura" text DEFAULT 'simples' NOT NULL;--> statement-breakpoint
ALTER TABLE "contrato_partes" ADD COLUMN "tipo_assinatura" text DEFAULT 'desenhada' NOT NULL;--> statement-breakpoint
ALTER TABLE "contrato_partes" ADD COLUMN "porta_origem" integer;--> statement-breakpoint
ALTER TABLE "contrato_partes" ADD COLUMN "dispositivo" text;--> statement-breakpoint
-- Signatures already made with a verified code reached the advanced level.
UPDATE contrato_partes SET nivel_assinatura = 'avancada' WHERE otp_verificado;
