-- A minor's guardian has their own e-mail and mobile: the link, the code, the reminders and the
-- signed copy go there when the guardian signs, never to the minor's contacts.
ALTER TABLE "pacientes" ADD COLUMN "responsavel_email" text;--> statement-breakpoint
ALTER TABLE "pacientes" ADD COLUMN "responsavel_telefone" text;
