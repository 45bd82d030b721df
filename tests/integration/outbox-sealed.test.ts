import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { emailOutbox } from "../../src/db/schema.js";
import { createSecretBox } from "../../src/server/lib/secret-box.js";
import { UNOPENABLE_BODY } from "../../src/server/services/email/deliver-emails.js";
import { openOutboxBody } from "../../src/server/services/email/outbox-body.js";
import { type Received, startSmtp } from "../fakes/smtp-server.js";
import { latestMail, openMail } from "../helpers/outbox.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { signableDocument, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * The outbox keeps its messages' text sealed (migration 0038): what it carries — signing links,
 * signing codes, reset links — must not be readable from the database, a dump or a replica, and a
 * row changed after it was queued must not be sent.
 */
let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let clinic: SignedIn;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      SMTP_FROM: "Consentir <nao-responda@consentir.test>",
      PUBLIC_URL: "https://app.consentir.test",
    },
  });
  // Each fork has its database to itself; mail left by the fork's earlier files is closed first.
  await ctx.database.db.execute(sql`update email_outbox set status = 'sent' where status = 'pending'`);
  clinic = await newClinic(ctx.app);
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** The whole row as PostgreSQL prints it: every column, bytea in hex. */
const rowAsText = async (id: string) =>
  (await rawRows<{ row: string }>(ctx.database.db, sql`select e::text as row from email_outbox e where id = ${id}`))[0]
    ?.row ?? "";

/** Ticks the worker until the message is no longer pending (other pending mail goes first). */
async function deliver(id: string): Promise<typeof emailOutbox.$inferSelect> {
  for (let round = 0; round < 20; round += 1) {
    await ctx.app.worker.tick({ sweep: false });
    const [row] = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    if (row && row.status !== "pending") return row;
  }
  throw new Error(`message ${id} still pending`);
}

/** A received message as its reader sees it: quoted-printable soft breaks and escapes undone. */
const readable = (message: Received): string =>
  message.raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A received message's subject, its RFC 2047 encoded words decoded. */
function subjectOf(message: Received): string {
  const header = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(message.raw)?.[1] ?? "";
  return header
    .replace(/\r\n[ \t]/g, " ")
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text
              .replace(/_/g, " ")
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            "latin1",
          ).toString("utf8"),
    )
    .trim();
}

describe("the outbox at rest", () => {
  it("keeps no signing link, code or reset link in clear, and sends them whole", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { database: ctx.database });
    const sent = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      headers: { cookie: clinic.cookie },
      payload: { email: true },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const token = tokenOf(sent.json().link);
    const asked = await ctx.app.inject({ method: "POST", url: `/api/public/sign/${token}/code` });
    expect(asked.statusCode, asked.body).toBe(200);
    const reset = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/request",
      payload: { email: clinic.email },
    });
    expect(reset.statusCode).toBe(202);

    const linkMail = (await latestMail(
      ctx,
      patient.email!,
      sql`${emailOutbox.subject} like '%documento para assinatura%'`,
    ))!;
    const codeMail = (await latestMail(ctx, patient.email!, sql`${emailOutbox.subject} like '%código para assinar%'`))!;
    const resetMail = (await latestMail(ctx, clinic.email))!;
    const code = /\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? "";
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(resetMail.text)?.[1] ?? "";
    expect(linkMail.text).toContain(sent.json().link);
    expect(code).toMatch(/^\d{6}$/);
    expect(resetToken.length).toBeGreaterThan(20);

    // What a database reader sees: no token, no code, no reset token, in any column.
    for (const [mail, secret] of [
      [linkMail, token],
      [codeMail, code],
      [resetMail, resetToken],
    ] as const) {
      expect(mail.text_body).toBeNull();
      expect(mail.body_sealed).not.toBeNull();
      const stored = await rowAsText(mail.id);
      expect(stored).toContain(mail.to_address);
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(Buffer.from(secret).toString("hex"));
    }
    // The code's subject is kept without the code; the patient gets it with it.
    expect(codeMail.subject).toMatch(/: seu código para assinar$/);
    expect(codeMail.sentSubject).toBe(`${codeMail.subject} — ${code}`);

    for (const mail of [linkMail, codeMail, resetMail]) expect((await deliver(mail.id)).status).toBe("sent");
    const received = (to: string) => smtp.received.filter((m) => m.to.includes(to));
    const toPatient = received(patient.email!);
    expect(toPatient.some((m) => readable(m).includes(sent.json().link))).toBe(true);
    expect(toPatient.map(subjectOf)).toContain(codeMail.sentSubject);
    expect(
      received(clinic.email.toLowerCase())
        .concat(received(clinic.email))
        .some((m) => readable(m).includes(resetToken)),
    ).toBe(true);
  });

  it("does not send a message whose row was changed after it was queued", async () => {
    const reset = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/request",
      payload: { email: clinic.email },
    });
    expect(reset.statusCode).toBe(202);
    const mail = (await latestMail(ctx, clinic.email))!;
    // Someone with write access to the database sends the reset link to themselves.
    await ctx.database.db
      .update(emailOutbox)
      .set({ to_address: "intruso@exemplo.com" })
      .where(eq(emailOutbox.id, mail.id));
    const row = await deliver(mail.id);
    expect(row.status).toBe("failed");
    expect(row.attempts.at(-1)?.error).toBe(UNOPENABLE_BODY);
    expect(smtp.received.filter((m) => m.to.includes("intruso@exemplo.com"))).toHaveLength(0);
  });

  it("seals, at the worker's sweep, the messages queued in clear before migration 0038, and still sends them", async () => {
    const [legacy] = await ctx.database.db
      .insert(emailOutbox)
      .values({
        tenant_id: clinic.tenantId,
        to_address: "antiga@exemplo.com.br",
        subject: "Mensagem antiga",
        text_body: "Link antigo: https://app.consentir.test/convite/abc123segredo",
        html_body: null,
      })
      .returning();
    expect(await rowAsText(legacy!.id)).toContain("abc123segredo");
    // The sweep seals before delivery sends; the message is delivered by the same round or the next.
    await ctx.app.worker.tick({ sweep: true });
    const stored = await rowAsText(legacy!.id);
    expect(stored).not.toContain("abc123segredo");
    const [row] = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, legacy!.id));
    expect(row!.text_body).toBeNull();
    expect(openMail(ctx.app.services.secretBox, row!).text).toBe(
      "Link antigo: https://app.consentir.test/convite/abc123segredo",
    );
    expect((await deliver(legacy!.id)).status).toBe("sent");
    expect(
      smtp.received
        .filter((m) => m.to.includes("antiga@exemplo.com.br"))
        .some((m) => readable(m).includes("abc123segredo")),
    ).toBe(true);
  });

  it("opens only with the instance's key", async () => {
    const mail = (await latestMail(ctx, clinic.email))!;
    expect(() => openOutboxBody(createSecretBox(Buffer.alloc(32, 7)), mail)).toThrow();
  });

  it("shows the development outbox opened, and only to this machine", async () => {
    const mine = await ctx.app.inject({ method: "GET", url: `/api/dev/outbox?to=${encodeURIComponent(clinic.email)}` });
    expect(mine.statusCode, mine.body).toBe(200);
    const items = mine.json().items as { text: string; subject: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.some((item) => item.text.includes("redefinir-senha?token="))).toBe(true);
    const remote = await ctx.app.inject({ method: "GET", url: "/api/dev/outbox", remoteAddress: "203.0.113.9" });
    expect(remote.statusCode).toBe(404);
  });
});
