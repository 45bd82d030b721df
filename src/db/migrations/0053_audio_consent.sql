-- Audio consent (decision 069). The clinic may ask, per document, for the patient to record
-- themselves reading the agreement sentence; the recording is kept sealed (AES-256-GCM with the
-- instance key) in the file storage, one files row per upload, and the one kept with the signature
-- is named by the party. A retained document's party cannot change (0029), and the files row it
-- names cannot be removed or pointed at other bytes: the audio lives as long as the document.
ALTER TABLE "contratos" ADD COLUMN "pedir_audio" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "contrato_partes" ADD COLUMN "audio_file_id" uuid;
--> statement-breakpoint
ALTER TABLE "contrato_partes" ADD CONSTRAINT "contrato_partes_audio_fk" FOREIGN KEY ("tenant_id","audio_file_id") REFERENCES "public"."files"("tenant_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_files_retention() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  doc record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.sha256 IS NOT DISTINCT FROM OLD.sha256 AND NEW.size IS NOT DISTINCT FROM OLD.size
     AND NEW.tenant_id IS NOT DISTINCT FROM OLD.tenant_id AND NEW.id IS NOT DISTINCT FROM OLD.id THEN
    RETURN NEW;
  END IF;
  SELECT c.id, c.signed_at INTO doc FROM contratos c
    WHERE c.tenant_id = OLD.tenant_id AND (c.signed_pdf_file_id = OLD.id OR c.pdf_file_id = OLD.id)
      AND app_document_retained(c.status, c.signed_at)
    LIMIT 1;
  IF NOT FOUND THEN
    SELECT c.id, c.signed_at INTO doc FROM contrato_partes p
      JOIN contratos c ON c.tenant_id = p.tenant_id AND c.id = p.contrato_id
      WHERE p.tenant_id = OLD.tenant_id AND (p.assinatura_file_id = OLD.id OR p.audio_file_id = OLD.id)
        AND app_document_retained(c.status, c.signed_at)
      LIMIT 1;
  END IF;
  IF FOUND THEN
    PERFORM app_retention_refusal('o arquivo', doc.id, doc.signed_at);
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
