-- Background work wakes the worker instead of a poll each second (decision 055): a new or
-- rescheduled pending job or e-mail announces itself on consentir_work once its transaction
-- commits. The payload is the table's name only. The worker still sleeps until the next due time
-- it read, and polls at most every 30 s in case a notification was lost (a dropped connection).
CREATE FUNCTION app_notify_work() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('consentir_work', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER jobs_notify_work AFTER INSERT OR UPDATE OF status, run_at ON jobs
  FOR EACH ROW WHEN (NEW.status = 'pending') EXECUTE FUNCTION app_notify_work();
--> statement-breakpoint
CREATE TRIGGER email_outbox_notify_work AFTER INSERT OR UPDATE OF status, next_attempt_at ON email_outbox
  FOR EACH ROW WHEN (NEW.status = 'pending') EXECUTE FUNCTION app_notify_work();
--> statement-breakpoint
-- When a running job's lease ends (its process died), the worker must wake for it too.
CREATE INDEX "jobs_lease_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."status" = 'running';
