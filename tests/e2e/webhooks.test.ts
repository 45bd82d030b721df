import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";
import { seedSignableDocument } from "./signing-helpers.js";

/**
 * Configurações → Webhooks (decision 062) as a clinic's owner uses it, against a receiver that
 * does what another system of the clinic must do: verify the Standard Webhooks signature
 * (HMAC-SHA256 of `id.timestamp.body` with the base64-decoded secret, any of the space-separated
 * `v1,` entries) and answer 401 when it does not match — so "Entregue, HTTP 204" in the log
 * means the signature was verified.
 */

interface Received {
  id: string;
  timestamp: string;
  signatures: string[];
  body: string;
}

interface VerifyingReceiver {
  url: string;
  /** The secrets this receiver accepts (set once the screen shows them). */
  secrets: string[];
  /** Answers 500 (after verifying) when true. */
  failing: boolean;
  /** Verified messages, in arrival order. */
  received: Received[];
  /** Messages whose signature did not verify. */
  refused: number;
  close(): Promise<void>;
}

function verifies(secret: string, id: string, timestamp: string, body: string, signature: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  const [version, value] = signature.split(",");
  if (version !== "v1" || !value) return false;
  const given = Buffer.from(value, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function startVerifyingReceiver(): Promise<VerifyingReceiver> {
  const state: VerifyingReceiver = {
    url: "",
    secrets: [],
    failing: false,
    received: [],
    refused: 0,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"] ?? "");
      const timestamp = String(req.headers["webhook-timestamp"] ?? "");
      const signatures = String(req.headers["webhook-signature"] ?? "")
        .split(" ")
        .filter(Boolean);
      const fresh = /^\d+$/.test(timestamp) && Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
      const ok =
        id !== "" &&
        fresh &&
        signatures.some((signature) =>
          state.secrets.some((secret) => verifies(secret, id, timestamp, body, signature)),
        );
      if (!ok) {
        state.refused += 1;
        res.writeHead(401).end();
        return;
      }
      state.received.push({ id, timestamp, signatures, body });
      res.writeHead(state.failing ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/consentir/webhook`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

let browser: Browser;
let receiver: VerifyingReceiver;
beforeAll(async () => {
  browser = await launchBrowser();
  receiver = await startVerifyingReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await browser?.close();
});

const typeOf = (message: Received) => (JSON.parse(message.body) as { type: string }).type;

/** The delivery log's row of `label` (the newest first), once its status reads `status`. */
async function deliveryRow(page: Page, label: string, status: string) {
  const row = page.getByTestId("webhook-delivery").filter({ hasText: label }).first();
  await expect.poll(() => row.getByTestId("webhook-delivery-status").textContent(), { timeout: 20_000 }).toBe(status);
  return row;
}

describe("webhooks in Configurações (decision 062)", () => {
  it("the owner adds an endpoint, sees its secret once, and signed events reach the clinic's system", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.getByRole("link", { name: "Configurações", exact: true }).click();
    const card = page.getByTestId("webhooks");
    await card.getByTestId("webhooks-empty").waitFor();
    await card.scrollIntoViewIfNeeded();
    await snap(page, "webhooks-empty-desktop", { fullPage: false });

    // The URL is required, in Portuguese.
    await card.getByRole("button", { name: "Novo endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Novo endpoint de webhook" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Criar endpoint" }).click();
    await dialog.getByText("Informe a URL do endpoint").waitFor();
    await dialog.getByLabel(/^URL/).fill("sistema.exemplo.com.br");
    await dialog.getByRole("button", { name: "Criar endpoint" }).click();
    await dialog.getByText("URL inválida: use um endereço http:// ou https:// completo").waitFor();

    await dialog.getByLabel(/^URL/).fill(receiver.url);
    await dialog.getByLabel(/^Descrição/).fill("Prontuário eletrônico");
    await dialog.getByLabel("Paciente cadastrado").uncheck();
    await dialog.getByLabel("Paciente alterado").uncheck();
    await animationsFinished(page);
    await snap(page, "webhooks-create-desktop", { fullPage: false });
    await dialog.getByRole("button", { name: "Criar endpoint" }).click();

    const shown = page.getByRole("dialog", { name: "Endpoint criado" });
    await shown.waitFor();
    const secret = await shown.getByTestId("webhook-secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await animationsFinished(page);
    await snap(page, "webhooks-secret-shown-once-desktop", { fullPage: false });
    await shown.getByRole("button", { name: "Concluir" }).click();
    await shown.waitFor({ state: "detached" });
    receiver.secrets = [secret];

    const endpoint = card.getByTestId("webhook-endpoint");
    await endpoint.getByTestId("webhook-url").getByText(receiver.url).waitFor();
    expect(await endpoint.textContent()).toContain("Prontuário eletrônico");
    expect(await endpoint.textContent()).not.toContain("Paciente cadastrado");
    expect(await page.content()).not.toContain(secret.slice(6));

    // Before any event: the log says so. While it loads: a placeholder.
    let releaseDeliveries: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      releaseDeliveries = resolve;
    });
    await page.route("**/api/settings/webhooks/*/deliveries", async (route) => {
      await held;
      await route.continue();
    });
    await endpoint.getByRole("button", { name: "Ver entregas" }).click();
    await endpoint.locator('[data-slot="skeleton"], .animate-pulse').first().waitFor();
    await snap(page, "webhooks-deliveries-loading-desktop", { fullPage: false });
    releaseDeliveries();
    await endpoint.getByTestId("webhook-deliveries-empty").waitFor();
    await page.unroute("**/api/settings/webhooks/*/deliveries");

    // Enviar evento de teste: signed, verified by the receiver, logged with its answer.
    await endpoint.getByRole("button", { name: "Enviar evento de teste" }).click();
    await page.getByText("Evento de teste enviado").waitFor();
    const testRow = await deliveryRow(page, "Evento de teste", "Entregue");
    expect(await testRow.getByTestId("webhook-delivery-answer").textContent()).toMatch(/^RecebidoHTTP 204 · \d+ ms$/);
    expect(receiver.received.map(typeOf)).toEqual(["webhook.test"]);

    // A document event: created through the API as the clinic does, delivered signed.
    const documentId = await seedSignableDocument(page, account, {
      nome: "Helena Duarte",
      cpf: validCpf(),
      email: "helena.duarte@exemplo.com.br",
    });
    await page.reload();
    await card.getByTestId("webhook-endpoint").getByRole("button", { name: "Ver entregas" }).click();
    const docRow = await deliveryRow(page, "Documento criado", "Entregue");
    expect(await docRow.getByTestId("webhook-delivery-answer").textContent()).toMatch(/^RecebidoHTTP 204 · \d+ ms$/);
    expect(await docRow.getByTestId("webhook-delivery-attempts").textContent()).toBe("1");
    const created = receiver.received.find((m) => typeOf(m) === "document.created");
    expect(created).toBeDefined();
    const payload = JSON.parse(created!.body) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload.type).toBe("document.created");
    expect(payload.data).toMatchObject({ id: documentId, status: expect.any(String) });
    expect(created!.body).not.toContain("Helena");
    expect(created!.signatures).toHaveLength(1);
    expect(created!.signatures[0]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // The patient events were not chosen: none came.
    expect(receiver.received.some((m) => typeOf(m).startsWith("patient."))).toBe(false);
    expect(receiver.refused).toBe(0);
    await animationsFinished(page);
    await card.getByTestId("webhook-endpoint").scrollIntoViewIfNeeded();
    await snap(page, "webhooks-deliveries-desktop", { fullPage: false });

    // Reenviar: the same message (same webhook-id and body), signed again, a second attempt.
    const before = receiver.received.length;
    await docRow.getByRole("button", { name: "Reenviar", exact: true }).click();
    await page.getByText("Entrega reenviada").waitFor();
    await expect
      .poll(() => docRow.getByTestId("webhook-delivery-attempts").textContent(), { timeout: 20_000 })
      .toBe("2");
    await deliveryRow(page, "Documento criado", "Entregue");
    expect(receiver.received).toHaveLength(before + 1);
    const again = receiver.received.at(-1)!;
    expect(again.id).toBe(created!.id);
    expect(again.body).toBe(created!.body);

    // The receiver fails: the log says so in Portuguese, and the endpoint shows it is failing. (A test
    // event is tried once; document events retry for three days — the integration tests move that clock.)
    receiver.failing = true;
    await endpoint.getByRole("button", { name: "Enviar evento de teste" }).click();
    const failedRow = await deliveryRow(page, "Evento de teste", "Falhou");
    expect(await failedRow.getByTestId("webhook-delivery-answer").textContent()).toMatch(
      /^O outro sistema respondeu com erroHTTP 500 · \d+ ms$/,
    );
    await page.reload();
    await card
      .getByTestId("webhook-endpoint")
      .getByText(/^Falhando desde \d{2}\/\d{2}\/\d{4}/)
      .waitFor();
    await card.getByTestId("webhook-endpoint").getByRole("button", { name: "Ver entregas" }).click();
    await deliveryRow(page, "Evento de teste", "Falhou");
    await animationsFinished(page);
    await card.getByTestId("webhook-endpoint").scrollIntoViewIfNeeded();
    await snap(page, "webhooks-failing-desktop", { fullPage: false });
    receiver.failing = false;

    // Trocar segredo: the new one shown once; for 24 hours both sign, so the receiver can switch.
    await card.getByTestId("webhook-endpoint").getByRole("button", { name: "Trocar segredo" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Trocar o segredo de assinatura?" });
    await confirm.waitFor();
    await animationsFinished(page);
    await snap(page, "webhooks-rotate-confirm-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Trocar segredo" }).click();
    const rotated = page.getByRole("dialog", { name: "Novo segredo de assinatura" });
    await rotated.waitFor();
    const newSecret = await rotated.getByTestId("webhook-secret").inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated
      .getByTestId("webhook-secret-grace-note")
      .getByText(/continua valendo até \d{2}\/\d{2}\/\d{4}/)
      .waitFor();
    await animationsFinished(page);
    await snap(page, "webhooks-rotated-desktop", { fullPage: false });
    await rotated.getByRole("button", { name: "Concluir" }).click();
    await card.getByTestId("webhook-secret-grace").waitFor();

    // The receiver still knows only the old secret: the next event verifies, and carries both signatures.
    const sentBefore = receiver.received.length;
    await card.getByTestId("webhook-endpoint").getByRole("button", { name: "Enviar evento de teste" }).click();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(sentBefore + 1);
    const both = receiver.received.at(-1)!;
    expect(both.signatures).toHaveLength(2);
    expect(verifies(newSecret, both.id, both.timestamp, both.body, both.signatures[0]!)).toBe(true);
    expect(verifies(secret, both.id, both.timestamp, both.body, both.signatures[1]!)).toBe(true);
    expect(receiver.refused).toBe(0);

    // The card on a phone: nothing widens the page.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, account.email, account.password);
    await phone.page.goto("/settings");
    const phoneCard = phone.page.getByTestId("webhooks");
    await phoneCard.getByRole("button", { name: "Ver entregas" }).click();
    await phoneCard.getByTestId("webhook-delivery").first().waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The deliveries table fits the card (Reenviar sits under the event): no sideways scroll.
    const table = phoneCard.getByRole("table", { name: "Entregas" });
    expect(await table.evaluate((t) => t.scrollWidth <= (t.parentElement?.clientWidth ?? 0))).toBe(true);
    await phoneCard.getByTestId("webhook-delivery").first().getByRole("button", { name: "Reenviar" }).waitFor();
    await phoneCard.scrollIntoViewIfNeeded();
    await snap(phone.page, "webhooks-phone", { fullPage: false });
    await phoneCard.getByText(/^Resposta: o que o outro sistema devolveu/).scrollIntoViewIfNeeded();
    await snap(phone.page, "webhooks-deliveries-phone", { fullPage: false });
    expect(phone.errors).toEqual([]);
    await phone.context.close();

    expect(errors).toEqual([]);
    await context.close();
  });
});
