import { describe, expect, it } from "vitest";
import { emailChannelOf, signingRequirement } from "./signing-settings.js";

describe("signingRequirement (issue 11: never a code that cannot arrive)", () => {
  const usable = { smtp: true, usable: true };
  it("asks for the code, reaching 'avançada', when the clinic wants it and it can reach the registered e-mail", () => {
    expect(signingRequirement(true, usable, "ana@exemplo.com.br")).toEqual({ codeRequired: true, level: "avancada", reason: null });
  });
  it("is 'simples', saying why, otherwise", () => {
    expect(signingRequirement(false, usable, "ana@exemplo.com.br")).toMatchObject({ codeRequired: false, level: "simples", reason: "A clínica desativou o código de verificação." });
    expect(signingRequirement(true, { smtp: false, usable: false }, "ana@exemplo.com.br").reason).toBe("O envio de e-mail não está configurado neste servidor.");
    expect(signingRequirement(true, usable, null).reason).toBe("O paciente não tem e-mail cadastrado para receber o código.");
  });
  it("counts the development outbox as a channel, never in production", () => {
    expect(emailChannelOf({ NODE_ENV: "development", SMTP_URL: undefined })).toEqual({ smtp: false, usable: true });
    expect(emailChannelOf({ NODE_ENV: "production", SMTP_URL: undefined })).toEqual({ smtp: false, usable: false });
    expect(emailChannelOf({ NODE_ENV: "production", SMTP_URL: "smtp://x:y@smtp.exemplo.com:587" })).toEqual({ smtp: true, usable: true });
  });
});
