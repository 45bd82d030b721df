-- Live updates (issue 13, decision 022): the changes screens care about announce themselves on the
-- channel consentir_changes, from the database, so every process (and every write path: API, jobs,
-- SQL) is covered. NOTIFY is transactional: listeners hear a change only once it is committed, and
-- never one that was rolled back. Payloads carry ids only, never personal data:
--   {"tenant_id": uuid, "kind": "document"|"patient"|"profile"|"session", "id": uuid, "status"?: text}
-- The functions run as the caller (row-level security unchanged) and only call pg_notify.
CREATE FUNCTION app_notify_change(tenant uuid, kind text, id uuid, status text DEFAULT NULL) RETURNS void
  LANGUAGE sql AS $$
  SELECT pg_notify('consentir_changes',
    jsonb_strip_nulls(jsonb_build_object('tenant_id', tenant, 'kind', kind, 'id', id, 'status', status))::text)
$$;
--> statement-breakpoint
CREATE FUNCTION app_notify_contrato_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM app_notify_change(OLD.tenant_id, 'document', OLD.id);
  ELSE
    PERFORM app_notify_change(NEW.tenant_id, 'document', NEW.id, NEW.status);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contratos_notify_insert_delete AFTER INSERT OR DELETE ON contratos
  FOR EACH ROW EXECUTE FUNCTION app_notify_contrato_change();
--> statement-breakpoint
-- Compared column by column: the frozen model (documento, up to the size limit) is never read
-- here; its hash stands for it.
CREATE TRIGGER contratos_notify_update AFTER UPDATE ON contratos
  FOR EACH ROW WHEN (
    (OLD.status, OLD.titulo, OLD.procedimento, OLD.procedimento_id, OLD.data_procedimento, OLD.medico_responsavel_id,
     OLD.conteudo_sha256, OLD.expiracao_at, OLD.pdf_file_id, OLD.cancel_reason, OLD.cancelled_at, OLD.signed_at,
     OLD.sent_at, OLD.viewed_at, OLD.signed_pdf_file_id, OLD.verification_code, OLD.signed_pdf_sha256, OLD.updated_at)
    IS DISTINCT FROM
    (NEW.status, NEW.titulo, NEW.procedimento, NEW.procedimento_id, NEW.data_procedimento, NEW.medico_responsavel_id,
     NEW.conteudo_sha256, NEW.expiracao_at, NEW.pdf_file_id, NEW.cancel_reason, NEW.cancelled_at, NEW.signed_at,
     NEW.sent_at, NEW.viewed_at, NEW.signed_pdf_file_id, NEW.verification_code, NEW.signed_pdf_sha256, NEW.updated_at)
  ) EXECUTE FUNCTION app_notify_contrato_change();
--> statement-breakpoint
-- A party's signature is news about its document (the professional's, a witness's, the patient's).
CREATE FUNCTION app_notify_contrato_parte_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM app_notify_change(OLD.tenant_id, 'document', OLD.contrato_id);
  ELSE
    PERFORM app_notify_change(NEW.tenant_id, 'document', NEW.contrato_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contrato_partes_notify AFTER INSERT OR UPDATE OR DELETE ON contrato_partes
  FOR EACH ROW EXECUTE FUNCTION app_notify_contrato_parte_change();
--> statement-breakpoint
CREATE FUNCTION app_notify_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM app_notify_change(OLD.tenant_id, TG_ARGV[0], OLD.id);
  ELSE
    PERFORM app_notify_change(NEW.tenant_id, TG_ARGV[0], NEW.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER profiles_notify_insert_delete AFTER INSERT OR DELETE ON profiles
  FOR EACH ROW EXECUTE FUNCTION app_notify_row_change('profile');
--> statement-breakpoint
CREATE TRIGGER profiles_notify_update AFTER UPDATE ON profiles
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION app_notify_row_change('profile');
--> statement-breakpoint
CREATE TRIGGER pacientes_notify_insert_delete AFTER INSERT OR DELETE ON pacientes
  FOR EACH ROW EXECUTE FUNCTION app_notify_row_change('patient');
--> statement-breakpoint
CREATE TRIGGER pacientes_notify_update AFTER UPDATE ON pacientes
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION app_notify_row_change('patient');
--> statement-breakpoint
-- A session that ends (sign-out, deactivation, password reset, idle or expired sweep) ends the
-- streams opened with it at once. Statement level: a sweep deleting many sessions runs it once.
-- The server keeps these to itself; browsers never receive 'session' events.
CREATE FUNCTION app_notify_sessions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM app_notify_change(d.tenant_id, 'session', d.id) FROM deleted d;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_delete AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION app_notify_sessions_deleted();
