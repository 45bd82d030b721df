import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { auditEvents, contratos } from "../../src/db/schema.js";
import { buildApp } from "../../src/server/app.js";
import { newClinic } from "../helpers/sessions.js";
import { latestSigningCode, signableDocument, tokenOf } from "../helpers/signing.js";
import { testEnv } from "../helpers/test-env.js";
import { launchBrowser, snap } from "./browser.js";
import { drawSignature, patientPhone } from "./signing-helpers.js";
import { freePort } from "../helpers/server-process.js";

/**
 * The signing page when the server is too busy (decision 040), against a real app of this file's
 * own whose public gate has one place and no queue: while the test holds that place, every public
 * call is answered 503 PUBLIC_BUSY; the page must say "aguarde", try again by itself and go on
 * when the place is free — the patient never sees an error and signs once.
 */
let browser: Browser;
let app: FastifyInstance;
let database: Database;
let baseUrl: string;

beforeAll(async () => {
  browser = await launchBrowser();
  database = await openDatabase({ kind: "pglite-memory" });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  app = await buildApp({
    env: testEnv({
      WORKER: "true",
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      PUBLIC_MAX_IN_FLIGHT: "1",
      PUBLIC_MAX_WAITING: "0",
    }),
    database,
    logger: false,
  });
  await app.listen({ port, host: "127.0.0.1" });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

const BUSY_TITLE = "Muitas pessoas estão usando o sistema agora";

describe("signing page when the server is busy", () => {
  it("shows the wait, tries again by itself, and the patient signs once", async () => {
    const clinic = await newClinic(app);
    const { documentId, patient } = await signableDocument(app, clinic, { nome: "Helena Duarte Lins" });
    const sent = await app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      payload: {},
      headers: { cookie: clinic.cookie },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const link = sent.json().link as string;
    expect(link.startsWith(baseUrl)).toBe(true);

    const phone = await patientPhone(browser);
    const p = phone.page;
    const busyAnswers: number[] = [];
    p.on("response", (response) => {
      if (response.status() === 503) busyAnswers.push(503);
    });

    // The one place is taken: opening the link is answered "busy", and the page waits.
    let hold = await app.publicAdmission.enter();
    expect(hold).toBeTypeOf("function");
    await p.goto(link);
    const notice = p.getByTestId("busy-notice");
    await notice.getByText(BUSY_TITLE).waitFor();
    await notice
      .getByText("Aguarde um instante: tentamos de novo sozinhos. Não é preciso recarregar a página.")
      .waitFor();
    await p.getByText("Carregando documento…").waitFor();
    await snap(p, "signing-busy-loading-phone", { fullPage: false });
    expect(busyAnswers.length).toBeGreaterThan(0);
    // Nothing reached the document: the link is still "sent", not "viewed".
    const statusOf = async () =>
      (await database.db.select({ status: contratos.status }).from(contratos).where(eq(contratos.id, documentId)))[0]!
        .status;
    expect(await statusOf()).toBe("sent");

    // The place frees: the page's next try goes through on its own.
    hold!();
    await p.getByTestId("signing-status").getByText("Aguardando assinatura").waitFor({ timeout: 30_000 });
    await expect.poll(() => notice.textContent()).toBe("");
    expect(await statusOf()).toBe("viewed");

    // The code, then the signature, the latter sent while the server is busy again.
    await p.getByTestId("otp-step").getByRole("button", { name: "Enviar código" }).click();
    await p.getByText("Enviamos um código de 6 dígitos para o seu e-mail cadastrado", { exact: false }).waitFor();
    await p.getByLabel("Código de 6 dígitos").fill(await latestSigningCode({ app, database }, patient.email!));
    await p.getByRole("button", { name: "Confirmar código" }).click();
    await p.getByTestId("otp-verified").waitFor();
    await p.getByLabel("Nome completo").fill(patient.nome);
    await p.getByLabel("CPF").pressSequentially(patient.cpf);
    await p.getByLabel("E-mail").fill(patient.email!);
    await drawSignature(p);
    await p.getByTestId("consent").click();

    const before = busyAnswers.length;
    hold = await app.publicAdmission.enter();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await notice.getByText(BUSY_TITLE).waitFor();
    expect(busyAnswers.length).toBeGreaterThan(before);
    // No error is shown while it waits.
    expect(await p.getByTestId("sign-error").count()).toBe(0);
    await snap(p, "signing-busy-signing-phone", { fullPage: false });
    expect(await statusOf()).toBe("viewed");
    hold!();

    await p.getByTestId("signing-success").getByText("Documento assinado com sucesso!").waitFor({ timeout: 30_000 });
    await expect.poll(() => notice.textContent()).toBe("");
    expect(await statusOf()).toBe("signed");
    const [signedEvents] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(sql`${auditEvents.entity_id} = ${documentId} and ${auditEvents.action} = 'document.signed'`);
    expect(signedEvents!.n).toBe(1);
    expect(tokenOf(link)).toBeTruthy();
    // The browser logs the 503s themselves; nothing else went wrong on the page.
    expect(phone.errors.filter((line) => !/status of 503/.test(line))).toEqual([]);
    await phone.context.close();
  });
});
