import { describe, expect, it } from "vitest";
import { revocationText, revokedReason } from "./revocation";

describe("revocation wording (decision 048)", () => {
  const consultadoEm = "2026-12-01T21:40:00.000Z";

  it("says not revoked, when the lists were read and when the holder's was issued", () => {
    const text = revocationText({
      status: "nao_revogado",
      consultadoEm,
      listas: [
        {
          url: "http://lcr.exemplo/ac.crl",
          certificado: "MARIA",
          emitidaEm: "2026-12-01T12:00:00.000Z",
          proximaAte: null,
        },
      ],
    });
    expect(text).toBe(
      "não revogado segundo as listas de revogação (LCR) da cadeia, consultadas pelo servidor em 01/12/2026 às 18:40 (horário de Brasília); a do titular foi emitida em 01/12/2026 às 09:00 (horário de Brasília)",
    );
  });

  it("says why it was not looked up, and when it was tried", () => {
    expect(revocationText({ status: "nao_consultado", motivo: "a consulta está desligada" })).toBe(
      "revogação não consultada: a consulta está desligada",
    );
    expect(revocationText({ status: "indisponivel", consultadoEm, motivo: "a lista não respondeu" })).toBe(
      "revogação não consultada: a lista não respondeu (tentativa do servidor em 01/12/2026 às 18:40 (horário de Brasília))",
    );
  });

  it("names the revoked certificate of the chain and the reason", () => {
    const revoked = {
      status: "revogado" as const,
      consultadoEm,
      certificado: "AC Intermediária",
      revogadoEm: "2026-11-30T13:05:00.000Z",
      motivo: "comprometimento da chave",
      lista: "http://x",
    };
    expect(revokedReason(revoked, "MARIA")).toBe(
      "o certificado tem na cadeia o certificado “AC Intermediária”, revogado pela autoridade certificadora em 30/11/2026 às 10:05 (motivo: comprometimento da chave)",
    );
    expect(
      revokedReason(
        { ...revoked, certificado: "MARIA" },
        "MARIA",
        "o certificado ICP-Brasil escolhido pelo profissional",
      ),
    ).toBe(
      "o certificado ICP-Brasil escolhido pelo profissional foi revogado pela autoridade certificadora em 30/11/2026 às 10:05 (motivo: comprometimento da chave)",
    );
    expect(revokedReason({ ...revoked, certificado: "MARIA", motivo: null }, "MARIA")).toBe(
      "o certificado foi revogado pela autoridade certificadora em 30/11/2026 às 10:05",
    );
    expect(revocationText(revoked)).toMatch(/^“AC Intermediária” revogado em 30\/11\/2026 às 10:05/);
  });
});
