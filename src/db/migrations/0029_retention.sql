-- Retention of signed documents (Lei 13.787/2018: 20 years; decision 026). PostgreSQL itself
-- refuses to delete a signed document, or its evidence, before 20 years from signing — whichever
-- role asks (the app's, the owner's, a superuser's SQL) — and refuses an UPDATE that would make
-- it deletable. The same rule, for the screens and the routes, is src/shared/retention.

-- True while a document must be kept: signed less than 20 years ago, or signed with no time.
CREATE FUNCTION app_document_retained(p_status text, p_signed_at timestamptz) RETURNS boolean
  LANGUAGE sql STABLE AS $$
  SELECT p_status = 'signed' AND (p_signed_at IS NULL OR p_signed_at + interval '20 years' > now())
$$;
--> statement-breakpoint
CREATE FUNCTION app_retention_refusal(p_what text, p_contrato uuid, p_signed_at timestamptz) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Lei 13.787/2018: % do documento assinado % deve ser guardado(a) até %',
    p_what, p_contrato,
    coalesce(to_char((p_signed_at + interval '20 years') AT TIME ZONE 'America/Sao_Paulo', 'DD/MM/YYYY'), 'data indeterminada')
    USING ERRCODE = 'restrict_violation', CONSTRAINT = 'document_retention';
END $$;
--> statement-breakpoint
-- A retained document cannot be deleted, go back to another status, lose or change its signing
-- time past the period, its content, its patient, its sealed PDF or its verification code.
CREATE FUNCTION app_contratos_retention() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NOT app_document_retained(OLD.status, OLD.signed_at) THEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM app_retention_refusal('o registro', OLD.id, OLD.signed_at);
  END IF;
  IF NOT app_document_retained(NEW.status, NEW.signed_at)
     OR NEW.id IS DISTINCT FROM OLD.id
     OR NEW.tenant_id IS DISTINCT FROM OLD.tenant_id
     OR NEW.paciente_id IS DISTINCT FROM OLD.paciente_id
     OR NEW.documento IS DISTINCT FROM OLD.documento
     OR NEW.conteudo_sha256 IS DISTINCT FROM OLD.conteudo_sha256
     OR (OLD.signed_pdf_file_id IS NOT NULL AND NEW.signed_pdf_file_id IS DISTINCT FROM OLD.signed_pdf_file_id)
     OR (OLD.signed_pdf_sha256 IS NOT NULL AND NEW.signed_pdf_sha256 IS DISTINCT FROM OLD.signed_pdf_sha256)
     OR (OLD.verification_code IS NOT NULL AND NEW.verification_code IS DISTINCT FROM OLD.verification_code) THEN
    PERFORM app_retention_refusal('o conteúdo', OLD.id, OLD.signed_at);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER contratos_retention BEFORE UPDATE OR DELETE ON contratos
  FOR EACH ROW EXECUTE FUNCTION app_contratos_retention();
--> statement-breakpoint
-- Parties (signatures) and witnesses of a retained document: never changed or removed.
-- SECURITY DEFINER: the document is looked up whatever the caller's row-level security shows.
CREATE FUNCTION app_evidence_retention() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  doc record;
BEGIN
  SELECT c.id, c.signed_at INTO doc FROM contratos c
    WHERE c.tenant_id = OLD.tenant_id AND c.id = OLD.contrato_id AND app_document_retained(c.status, c.signed_at);
  IF FOUND THEN
    PERFORM app_retention_refusal(CASE TG_TABLE_NAME WHEN 'contrato_partes' THEN 'a assinatura' ELSE 'a testemunha' END, doc.id, doc.signed_at);
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER contrato_partes_retention BEFORE UPDATE OR DELETE ON contrato_partes
  FOR EACH ROW EXECUTE FUNCTION app_evidence_retention();
--> statement-breakpoint
CREATE TRIGGER contrato_testemunhas_retention BEFORE UPDATE OR DELETE ON contrato_testemunhas
  FOR EACH ROW EXECUTE FUNCTION app_evidence_retention();
--> statement-breakpoint
-- Stored files of a retained document (its sealed and draft PDF, the drawn signatures): the row
-- that names the bytes cannot be removed or pointed at other bytes.
CREATE FUNCTION app_files_retention() RETURNS trigger
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
      WHERE p.tenant_id = OLD.tenant_id AND p.assinatura_file_id = OLD.id AND app_document_retained(c.status, c.signed_at)
      LIMIT 1;
  END IF;
  IF FOUND THEN
    PERFORM app_retention_refusal('o arquivo', doc.id, doc.signed_at);
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER files_retention BEFORE UPDATE OR DELETE ON files
  FOR EACH ROW EXECUTE FUNCTION app_files_retention();
--> statement-breakpoint
-- TRUNCATE skips row triggers: refuse it outright while any document is retained.
CREATE FUNCTION app_retention_truncate() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  doc record;
BEGIN
  SELECT c.id, c.signed_at INTO doc FROM contratos c WHERE app_document_retained(c.status, c.signed_at) LIMIT 1;
  IF FOUND THEN
    PERFORM app_retention_refusal('o registro', doc.id, doc.signed_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contratos_retention_truncate BEFORE TRUNCATE ON contratos
  FOR EACH STATEMENT EXECUTE FUNCTION app_retention_truncate();
--> statement-breakpoint
CREATE TRIGGER contrato_partes_retention_truncate BEFORE TRUNCATE ON contrato_partes
  FOR EACH STATEMENT EXECUTE FUNCTION app_retention_truncate();
--> statement-breakpoint
CREATE TRIGGER contrato_testemunhas_retention_truncate BEFORE TRUNCATE ON contrato_testemunhas
  FOR EACH STATEMENT EXECUTE FUNCTION app_retention_truncate();
--> statement-breakpoint
CREATE TRIGGER files_retention_truncate BEFORE TRUNCATE ON files
  FOR EACH STATEMENT EXECUTE FUNCTION app_retention_truncate();
--> statement-breakpoint
-- Migration 0015 kept signatures out of the app's reach altogether. Now that the triggers above
-- guard the signed ones, the app may remove the parties of a document that was never signed
-- (the professional's declaration on a draft or a cancelled document) when it deletes it.
GRANT DELETE ON contrato_partes TO consentir_app;
