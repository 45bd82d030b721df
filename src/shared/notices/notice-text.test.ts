import { describe, expect, it } from "vitest";
import { isAppPath, noticeLink, noticeText, whenInSaoPaulo } from "./notice-text.js";

const now = new Date("2026-03-12T15:00:00Z");
const doc = "8e29db2f-b9dd-4c06-bb12-d5aee1efefcf";

describe("noticeText (pt-BR, São Paulo time)", () => {
  it("writes instants as São Paulo wall-clock time", () => {
    // 02:30 UTC is 23:30 of the day before in São Paulo (UTC−3).
    expect(whenInSaoPaulo(new Date("2026-03-12T02:30:00Z"))).toBe("11/03/2026 às 23:30");
  });

  it("tells a document viewed and not signed", () => {
    expect(
      noticeText(
        {
          kind: "document.viewed",
          titulo: "TCLE - Blefaroplastia",
          paciente: "Ana Souza",
          viewedAt: new Date("2026-03-11T13:05:00Z"),
        },
        now,
      ),
    ).toEqual({
      titulo: "Visualizado e não assinado",
      mensagem: 'Ana Souza abriu "TCLE - Blefaroplastia" em 11/03/2026 às 10:05 e ainda não assinou.',
    });
  });

  it("tells how long a document has before it expires", () => {
    const text = noticeText(
      {
        kind: "document.expiring",
        titulo: "TCLE",
        paciente: "Ana Souza",
        expiresAt: new Date("2026-03-13T20:30:00Z"),
        viewed: true,
      },
      now,
    );
    expect(text.titulo).toBe("Vence em menos de 48 horas");
    expect(text.mensagem).toBe(
      '"TCLE" de Ana Souza vence em 29 horas (13/03/2026 às 17:30) e ainda não foi assinado, embora já tenha sido aberto.',
    );
    const soon = noticeText(
      {
        kind: "document.expiring",
        titulo: "TCLE",
        paciente: null,
        expiresAt: new Date(now.getTime() + 20 * 60_000),
        viewed: false,
      },
      now,
    );
    expect(soon.mensagem).toBe('"TCLE" vence em menos de 1 hora (12/03/2026 às 12:20) e ainda não foi assinado.');
  });

  it("tells a signature since the last visit", () => {
    expect(
      noticeText(
        { kind: "document.signed", titulo: "TCLE", paciente: "Ana Souza", signedAt: new Date("2026-03-12T14:00:00Z") },
        now,
      ).mensagem,
    ).toBe('Ana Souza assinou "TCLE" em 12/03/2026 às 11:00.');
  });

  it("tells a failed e-mail and a failed Feegow upload with their own words", () => {
    expect(
      noticeText(
        {
          kind: "email.failed",
          assunto: "Documento para assinatura",
          para: "ana@exemplo.com.br",
          tentativas: 8,
          erro: "550 mailbox unavailable",
        },
        now,
      ),
    ).toEqual({
      titulo: "E-mail não entregue",
      mensagem:
        '"Documento para assinatura" para ana@exemplo.com.br não foi entregue depois de 8 tentativas: 550 mailbox unavailable',
    });
    expect(
      noticeText(
        { kind: "feegow.failed", titulo: "TCLE", paciente: "Ana Souza", erro: "Paciente não encontrado no Feegow" },
        now,
      ),
    ).toEqual({
      titulo: "Falha no envio ao Feegow",
      mensagem: 'O PDF de "TCLE" (Ana Souza) não foi enviado ao Feegow: Paciente não encontrado no Feegow',
    });
    const long = noticeText(
      { kind: "feegow.failed", titulo: "TCLE", paciente: null, erro: "x".repeat(1000) },
      now,
    ).mensagem;
    expect(long.length).toBeLessThan(400);
    expect(long.endsWith("…")).toBe(true);
  });

  it("counts a certificate's days left, and says when it has expired", () => {
    expect(
      noticeText(
        {
          kind: "certificate.expiring",
          alias: "e-CNPJ",
          titular: "CLINICA LTDA",
          expiresAt: new Date("2026-03-22T12:00:00Z"),
        },
        now,
      ).titulo,
    ).toBe("Certificado vence em 10 dias");
    expect(
      noticeText(
        {
          kind: "certificate.expiring",
          alias: "e-CNPJ",
          titular: "CLINICA LTDA",
          expiresAt: new Date("2026-03-13T01:00:00Z"),
        },
        now,
      ).titulo,
    ).toBe("Certificado vence em 1 dia");
    const expired = noticeText(
      {
        kind: "certificate.expired",
        alias: "e-CPF",
        titular: "ANA SOUZA",
        expiresAt: new Date("2026-03-10T12:00:00Z"),
      },
      now,
    );
    expect(expired).toEqual({
      titulo: "Certificado vencido",
      mensagem:
        'O certificado "e-CPF" (ANA SOUZA) venceu em 10/03/2026 e não assina mais documentos. Envie o certificado renovado em Certificado Digital.',
    });
  });

  it("keeps a system notice's own words", () => {
    expect(
      noticeText({ kind: "system", title: "Backup falhou", body: "O backup de hoje não foi concluído." }, now),
    ).toEqual({ titulo: "Backup falhou", mensagem: "O backup de hoje não foi concluído." });
  });
});

describe("noticeLink", () => {
  it("leads to the document, Integração or Certificado Digital", () => {
    expect(noticeLink("document.viewed", { documentId: doc })).toBe(`/documents/${doc}`);
    expect(noticeLink("feegow.failed", { documentId: doc, motivo: "sem_paciente" })).toBe(`/documents/${doc}`);
    expect(noticeLink("feegow.failed", { documentId: doc, motivo: "token_invalido" })).toBe("/integration");
    expect(noticeLink("certificate.expired", {})).toBe("/certificates");
    expect(noticeLink("email.failed", {})).toBeNull();
  });

  it("lets a system notice lead only inside the app", () => {
    expect(noticeLink("system", { link: "/settings" })).toBe("/settings");
    for (const link of [
      "//evil.example",
      "https://evil.example",
      "/\\evil",
      "javascript:alert(1)",
      "settings",
      "/a b",
    ]) {
      expect(isAppPath(link), link).toBe(false);
      expect(noticeLink("system", { link })).toBeNull();
    }
  });
});
