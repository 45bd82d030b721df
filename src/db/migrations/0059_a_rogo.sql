-- Signature "a rogo" (decision 070): the person of the patient's trust who signs at their request,
-- named by staff on the draft ({nome, cpf, motivo}); null for every other document.
ALTER TABLE "contratos" ADD COLUMN "a_rogo" jsonb;
