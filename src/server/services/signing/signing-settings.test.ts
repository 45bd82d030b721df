import { describe, expect, it } from "vitest";
import { emailChannelOf, signingRequirement } from "./signing-settings.js";

describe("signingRequirement (never a code that cannot arrive)", () => {
  const usable = { smtp: true, usable: true, sms: false };
  it("asks for the code, reaching 'avançada', when the clinic wants it and it can reach the registered e-mail", () => {
    expect(signingRequirement(true, usable, { email: "ana@exemplo.com.br", telefone: null })).toEqual({
      codeRequired: true,
      channels: ["email"],
      level: "avancada",
      reason: null,
    });
  });
  it("is 'simples', saying why, otherwise", () => {
    expect(signingRequirement(false, usable, { email: "ana@exemplo.com.br", telefone: null })).toMatchObject({
      codeRequired: false,
      level: "simples",
      reason: "A clínica desativou o código de verificação.",
    });
    expect(
      signingRequirement(
        true,
        { smtp: false, usable: false, sms: false },
        { email: "ana@exemplo.com.br", telefone: null },
      ).reason,
    ).toBe("O envio de e-mail não está configurado neste servidor.");
    expect(signingRequirement(true, usable, { email: null, telefone: "(11) 98765-4321" }).reason).toBe(
      "O paciente não tem e-mail cadastrado para receber o código.",
    );
  });
  it("counts the development outbox as a channel, never in production", () => {
    expect(emailChannelOf({ NODE_ENV: "development", SMTP_URL: undefined })).toEqual({
      smtp: false,
      usable: true,
      sms: false,
    });
    expect(emailChannelOf({ NODE_ENV: "production", SMTP_URL: undefined })).toEqual({
      smtp: false,
      usable: false,
      sms: false,
    });
    expect(
      emailChannelOf({ NODE_ENV: "production", SMTP_URL: "smtp://x:y@smtp.exemplo.com:587", SMS_API_TOKEN: "t" }),
    ).toEqual({ smtp: true, usable: true, sms: true });
  });
  it("sends by SMS to a mobile on record when SMS is configured, even without e-mail", () => {
    const smsOnly = { smtp: false, usable: false, sms: true };
    expect(
      signingRequirement(true, smsOnly, { email: "ana@exemplo.com.br", telefone: "(11) 98765-4321" }),
    ).toMatchObject({ codeRequired: true, channels: ["sms"], level: "avancada" });
    expect(
      signingRequirement(true, { ...usable, sms: true }, { email: "ana@exemplo.com.br", telefone: "(11) 98765-4321" })
        .channels,
    ).toEqual(["email", "sms"]);
    // A landline cannot receive an SMS.
    expect(signingRequirement(true, smsOnly, { email: null, telefone: "(11) 3456-7890" }).reason).toBe(
      "O paciente não tem e-mail nem celular cadastrado para receber o código.",
    );
  });
});
