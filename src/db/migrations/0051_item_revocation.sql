-- Revoking one optional consent (decisions 056 and 057): a revocation record may name the item it
-- revokes. The document keeps one whole refusal or revocation of each kind (item_id null), plus one
-- revocation per (document, item); an item record is always a revocation. The table's row-level
-- security, grants, retention and write-once trigger stay as they are (item_id is written once too).
ALTER TABLE "contrato_registros" ADD COLUMN "item_id" text;
--> statement-breakpoint
ALTER TABLE "contrato_registros" DROP CONSTRAINT "contrato_registros_tipo_unique";
--> statement-breakpoint
CREATE UNIQUE INDEX "contrato_registros_tipo_unique" ON "contrato_registros" USING btree ("tenant_id","contrato_id","tipo") WHERE "item_id" IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "contrato_registros_item_unique" ON "contrato_registros" USING btree ("tenant_id","contrato_id","item_id") WHERE "item_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "contrato_registros" ADD CONSTRAINT "contrato_registros_item_check" CHECK ("item_id" IS NULL OR "tipo" = 'revogacao');
