import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_LABEL, auditActionLabel, auditEventLabel } from "./labels.js";

describe("auditEventLabel", () => {
  it("names who opened the signing link from the event's papel", () => {
    expect(auditEventLabel("document.viewed", { via: "link", papel: "paciente" })).toBe("Aberto pelo paciente");
    expect(auditEventLabel("document.viewed", { via: "link", papel: "responsavel" })).toBe(
      "Aberto pelo responsável legal",
    );
    expect(auditEventLabel("document.viewed", { via: "link", papel: "testemunha", testemunha_id: "w1" })).toBe(
      "Aberto pela testemunha",
    );
  });

  it("recognises a witness by testemunha_id in events written before papel was recorded", () => {
    expect(
      auditEventLabel("document.viewed", { via: "link", testemunha_id: "0f3c9a52-7d1e-4b8a-9c6f-2e5d8b1a4c7e" }),
    ).toBe("Aberto pela testemunha");
  });

  it("falls back to 'signatário(a)' when the data does not say who (the patient's link is also the guardian's)", () => {
    for (const data of [
      { via: "link" },
      {},
      null,
      undefined,
      "x",
      [],
      { papel: "hacker" },
      { papel: "toString" },
      { papel: 3 },
      { testemunha_id: 7 },
    ]) {
      expect(auditEventLabel("document.viewed", data)).toBe("Aberto pelo(a) signatário(a)");
    }
    expect(auditActionLabel("document.viewed")).toBe("Aberto pelo(a) signatário(a)");
    expect(Object.values(AUDIT_ACTION_LABEL)).not.toContain("Aberto pelo paciente");
  });

  it("says where the guardian's link and code went, masked, and that it was the guardian's contact (decision 078)", () => {
    const guardian = { contato_de: "responsavel" };
    expect(auditEventLabel("document.link_emailed", { ...guardian, email: "m***@exemplo.com.br" })).toBe(
      "Link de assinatura enviado por e-mail ao responsável legal (m***@exemplo.com.br)",
    );
    expect(auditEventLabel("document.link_email_outbox", { ...guardian, email: "m***@exemplo.com.br" })).toBe(
      "E-mail com o link ao responsável legal na caixa de saída (m***@exemplo.com.br) (envio de e-mail não configurado)",
    );
    expect(auditEventLabel("document.otp_sent", { ...guardian, canal: "sms", telefone: "(11) *****-4321" })).toBe(
      "Código de verificação enviado por SMS ao celular do responsável legal ((11) *****-4321)",
    );
    expect(auditEventLabel("document.otp_sent", { ...guardian, canal: "email", email: "m***@exemplo.com.br" })).toBe(
      "Código de verificação enviado ao e-mail do responsável legal (m***@exemplo.com.br)",
    );
    // The patient's own contact: the labels as before.
    expect(auditEventLabel("document.link_emailed", { email: "p***@exemplo.com.br" })).toBe(
      "Link de assinatura enviado por e-mail ao paciente",
    );
    expect(auditEventLabel("document.otp_sent", { canal: "email", email: "p***@exemplo.com.br" })).toBe(
      "Código de verificação enviado ao paciente",
    );
  });

  it("gives every other action its fixed label, whatever the data, and unknown actions their code", () => {
    expect(auditEventLabel("document.sent", { papel: "paciente" })).toBe("Enviado para assinatura");
    expect(auditEventLabel("document.party_signed", { papel: "testemunha" })).toBe("Assinatura registrada");
    expect(auditEventLabel("algo.novo", { papel: "paciente" })).toBe("algo.novo");
  });
});

/** Every `action: "x.y"` literal the server writes (src/server), read from the source files. */
function recordedActions(): string[] {
  const root = path.resolve(import.meta.dirname, "../../server");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
    (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"),
  );
  const actions = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(path.join(root, file), "utf8").matchAll(/action: "([a-z_]+\.[a-z_]+)"/g))
      actions.add(match[1]!);
  }
  return [...actions].sort();
}

describe("AUDIT_ACTION_LABEL", () => {
  it("labels every action the server records (no code shown to a clinic or patient)", () => {
    const actions = recordedActions();
    expect(actions.length).toBeGreaterThan(50);
    expect(actions.filter((action) => !(action in AUDIT_ACTION_LABEL))).toEqual([]);
  });
});
