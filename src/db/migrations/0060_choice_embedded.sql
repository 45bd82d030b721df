-- A refusal or revocation made on the signing page shown inside a clinic's system (decision 071):
-- the parent site, kept only when the clinic allows it; null otherwise.
ALTER TABLE "contrato_registros" ADD COLUMN "incorporado_origem" text;
