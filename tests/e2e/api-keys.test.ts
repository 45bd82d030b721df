import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerEstablishment, signIn } from "./accounts.js";
import { animationsFinished, baseUrl, DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What another system of the clinic does: a plain HTTP call with the key, no cookie. */
const withKey = (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${baseUrl()}${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${key}`,
      accept: "application/json",
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe("API keys in Configurações (decision 058)", () => {
  it("the owner creates a key, sees it once, another system uses it, and revoking it stops it", async () => {
    const owner = await registerEstablishment();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page, owner.email, owner.password);
    await page.getByRole("link", { name: "Configurações", exact: true }).click();
    const card = page.getByTestId("api-keys");
    await card.getByTestId("api-keys-empty").waitFor();

    // A name is required.
    await card.getByRole("button", { name: "Nova chave" }).click();
    const dialog = page.getByRole("dialog", { name: "Nova chave de API" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Criar chave" }).click();
    await dialog.getByText("Informe um nome para a chave").waitFor();

    await dialog.getByLabel(/^Nome/).fill("Sistema da recepção");
    await dialog.getByLabel(/^Papel/).selectOption("atendente");
    await animationsFinished(page);
    await snap(page, "api-keys-create-desktop");
    await dialog.getByRole("button", { name: "Criar chave" }).click();

    const shown = page.getByRole("dialog", { name: "Chave criada" });
    await shown.waitFor();
    const secret = await shown.getByTestId("api-key-secret").inputValue();
    expect(secret).toMatch(/^csk_live_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole("button", { name: "Copiar chave" }).click();
    await shown.getByRole("button", { name: "Copiar chave" }).getByText("Copiada").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await animationsFinished(page);
    await snap(page, "api-keys-shown-once-desktop");
    await shown.getByRole("button", { name: "Concluir" }).click();
    await shown.waitFor({ state: "detached" });

    // Listed with its visible prefix only; the secret is nowhere on the page any more.
    const row = card.getByTestId("api-key-row").filter({ hasText: "Sistema da recepção" });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${secret.slice(0, 17)}…`);
    expect(await row.getByTestId("api-key-status").textContent()).toBe("Ativa");
    expect(await row.getByTestId("api-key-last-use").textContent()).toBe("Nunca");
    expect(await page.content()).not.toContain(secret.slice(17));

    // Another system calls the API with it.
    const created = await withKey(secret, "/api/patients", { method: "POST", body: { nome: "Paciente Integrado" } });
    expect(created.status).toBe(201);
    const listed = await withKey(secret, "/api/patients");
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain("Paciente Integrado");

    // The screen shows the last use after a reload.
    await page.reload();
    await expect.poll(() => row.getByTestId("api-key-last-use").textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}/);
    await animationsFinished(page);
    await snap(page, "api-keys-list-desktop");

    // Revoke, after a confirmation.
    await row.getByRole("button", { name: "Revogar" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Revogar esta chave?" });
    await confirm.waitFor();
    await animationsFinished(page);
    await snap(page, "api-keys-revoke-confirm-desktop");
    await confirm.getByRole("button", { name: "Revogar chave" }).click();
    await expect.poll(() => row.getByTestId("api-key-status").textContent()).toBe("Revogada");
    expect(await row.getByRole("button", { name: "Revogar" }).count()).toBe(0);

    const refused = await withKey(secret, "/api/patients");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      code: "API_KEY_INVALID",
      message: "Chave de API inválida, expirada ou revogada.",
    });

    // The card on a phone: the table scrolls inside it, the page does not widen.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, owner.email, owner.password);
    await phone.page.goto("/settings");
    await phone.page.getByTestId("api-key-row").first().waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phone.page.getByTestId("api-keys").scrollIntoViewIfNeeded();
    await snap(phone.page, "api-keys-phone", { fullPage: false });
    await phone.context.close();

    expect(errors).toEqual([]);
    await context.close();
  });
});
