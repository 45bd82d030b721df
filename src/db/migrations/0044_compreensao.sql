-- Comprehension questions (decision 061): the patient asked to talk to the professional after a
-- wrong answer. The signature is paused from then on: the link says so and refuses to sign, staff
-- see it and the responsible professional gets a notice; sending the document again lifts it.
ALTER TABLE "contratos" ADD COLUMN "compreensao_pausada_at" timestamp with time zone;
