import { describe, expect, it } from "vitest";
import { CHOICE_MESSAGES, recordCopyLine } from "./choices.js";

describe("where the sealed record goes, as the patient is told", () => {
  it("promises an e-mail only when e-mail leaves the server and there is an address", () => {
    const mailed = { email_configurado: true, copia_para: "be***@exemplo.com.br" };
    expect(recordCopyLine("recusa", mailed)).toBe(CHOICE_MESSAGES.refusedCopyByEmail("be***@exemplo.com.br"));
    expect(recordCopyLine("revogacao", mailed)).toBe(CHOICE_MESSAGES.revokedCopyByEmail("be***@exemplo.com.br"));
    // SMTP on, no address on record: nothing is sent, so nothing is promised.
    expect(recordCopyLine("revogacao", { email_configurado: true, copia_para: null })).toBe(
      CHOICE_MESSAGES.revokedCopyAtClinic,
    );
    expect(recordCopyLine("recusa", { email_configurado: false, copia_para: "be***@exemplo.com.br" })).toBe(
      CHOICE_MESSAGES.refusedCopyAtClinic,
    );
  });
});
