import { describe, expect, it } from "vitest";
import { createSecretBox } from "../../lib/secret-box.js";
import { type OutboxEnvelope, openOutboxBody, sealOutboxBody } from "./outbox-body.js";

const box = createSecretBox(Buffer.alloc(32, 1));
const envelope: OutboxEnvelope = {
  id: "0b6a3c2e-5f55-4a8e-9d55-7a3a1f3e0c11",
  tenant_id: "6f1d2c7e-1c1e-4a8b-9a55-2b3a1f3e0c22",
  to_address: "ana@exemplo.com.br",
  subject: "Clínica: seu código para assinar",
  attachments: [{ file_id: "f1" }],
};
const body = {
  subject: "Clínica: seu código para assinar — 123456",
  text: "Seu código é 123456",
  html: "<p>123456</p>",
};
const stored = (changes: Partial<OutboxEnvelope> = {}) => ({
  ...envelope,
  ...changes,
  body_sealed: sealOutboxBody(box, envelope, body),
  text_body: null,
  html_body: null,
});

describe("outbox bodies", () => {
  it("seal and open back whole", () => {
    expect(openOutboxBody(box, stored())).toEqual(body);
  });

  it("keep nothing of the text in clear", () => {
    const sealed = sealOutboxBody(box, envelope, body);
    expect(sealed.toString("latin1")).not.toContain("123456");
    expect(sealed.toString("utf8")).not.toContain("código");
  });

  it.each([
    ["another address", { to_address: "intruso@exemplo.com" }],
    ["another row", { id: "1b6a3c2e-5f55-4a8e-9d55-7a3a1f3e0c11" }],
    ["another clinic", { tenant_id: "7f1d2c7e-1c1e-4a8b-9a55-2b3a1f3e0c22" }],
    ["another subject", { subject: "Outro assunto" }],
    ["another attachment", { attachments: [{ file_id: "f2" }] }],
  ])("do not open once moved to %s", (_, changes) => {
    expect(() => openOutboxBody(box, stored(changes))).toThrow();
  });

  it("do not open with another key, nor with the instance key itself (a key of their own)", () => {
    expect(() => openOutboxBody(createSecretBox(Buffer.alloc(32, 2)), stored())).toThrow();
    expect(() => box.open(stored().body_sealed)).toThrow();
  });

  it("read the rows kept in clear before migration 0038", () => {
    expect(openOutboxBody(box, { ...envelope, body_sealed: null, text_body: "Olá", html_body: null })).toEqual({
      subject: null,
      text: "Olá",
      html: null,
    });
  });
});
