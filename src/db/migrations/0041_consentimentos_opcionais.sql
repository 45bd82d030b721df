-- Separate optional consents (decision 057): the signer's Sim/Não to each item the document's
-- frozen model offered, one row per item, written in the signature's transaction. The item id is
-- the model's, stable, so an item can later be revoked on its own; titulo is the title as offered.
CREATE TABLE "consentimentos_opcionais" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contrato_id" uuid NOT NULL,
	"parte_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"titulo" text NOT NULL,
	"aceito" boolean NOT NULL,
	"ordem" smallint NOT NULL,
	"respondido_em" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consentimentos_opcionais" ADD CONSTRAINT "consentimentos_opcionais_contrato_fk" FOREIGN KEY ("tenant_id","contrato_id") REFERENCES "public"."contratos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consentimentos_opcionais" ADD CONSTRAINT "consentimentos_opcionais_parte_id_contrato_partes_id_fk" FOREIGN KEY ("parte_id") REFERENCES "public"."contrato_partes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consentimentos_opcionais_contrato_item_unique" ON "consentimentos_opcionais" USING btree ("tenant_id","contrato_id","item_id");--> statement-breakpoint
ALTER TABLE consentimentos_opcionais ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON consentimentos_opcionais TO consentir_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
-- An answer is evidence: the app inserts and reads it, never changes it (a revocation will be a
-- record of its own). Deleting goes only with the document, which migration 0029 guards.
GRANT SELECT, INSERT ON consentimentos_opcionais TO consentir_app;
