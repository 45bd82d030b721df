import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const VALUES = {
  riscos: "Hematoma e edema na região tratada\nInfecção no local da incisão\nCicatriz aparente",
  beneficios: "Melhora funcional\nRecuperação rápida",
  cuidados: "Compressas frias por 48 horas\nEvitar esforço físico por 15 dias\nRetorno em 7 dias",
  valor: "R$ 1.500,00",
};

const field = {
  riscos: (page: Page) => page.getByLabel("Riscos padrão", { exact: true }),
  beneficios: (page: Page) => page.getByLabel("Benefícios padrão", { exact: true }),
  cuidados: (page: Page) => page.getByLabel("Cuidados pós-procedimento padrão", { exact: true }),
  valor: (page: Page) => page.getByLabel("Valor do procedimento padrão", { exact: true }),
};

/** Opens /profile/templates and waits for the saved values to be in the form. */
async function openScreen(page: Page): Promise<void> {
  await page.goto("/profile/templates");
  await page.getByRole("heading", { name: "Config. Templates" }).waitFor();
  await field.riscos(page).waitFor();
}

async function formValues(page: Page) {
  return {
    riscos: await field.riscos(page).inputValue(),
    beneficios: await field.beneficios(page).inputValue(),
    cuidados: await field.cuidados(page).inputValue(),
    valor: await field.valor(page).inputValue(),
  };
}

const NO_SPECIALTY =
  "Nenhuma especialidade vinculada ao seu perfil. Peça ao superusuário da clínica para vincular suas especialidades.";

describe("personal template defaults (/profile/templates)", () => {
  it("saves the four defaults, keeps them after a reload, and keeps the form when saving fails", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);

    const specialties = page.waitForResponse((r) => r.url().endsWith("/api/templates/specialties"));
    await openScreen(page);
    expect((await specialties).status()).toBe(200);

    // The tag list: the four tags and what each one is for.
    for (const tag of ["{{riscos}}", "{{beneficios}}", "{{cuidados_pos}}", "{{valor_procedimento}}"]) {
      await page.getByRole("term").filter({ hasText: tag }).waitFor();
    }
    expect(await page.getByRole("definition").count()).toBe(4);
    // Each field says which tag it fills.
    for (const [name, tag] of [
      ["riscos", "{{riscos}}"],
      ["beneficios", "{{beneficios}}"],
      ["cuidados", "{{cuidados_pos}}"],
      ["valor", "{{valor_procedimento}}"],
    ] as const) {
      const describedBy = await field[name](page).getAttribute("aria-describedby");
      expect(describedBy).toBeTruthy();
      expect(await page.locator(`[id="${describedBy!.split(" ")[0]}"]`).textContent()).toContain(tag);
    }
    // The owner of an independent practice is the clinic's superuser: no specialty warning.
    expect(await page.getByText(NO_SPECIALTY).count()).toBe(0);

    // A new professional has nothing saved yet.
    expect(await formValues(page)).toEqual({ riscos: "", beneficios: "", cuidados: "", valor: "" });
    await snap(page, "template-defaults-empty-desktop");

    await field.riscos(page).fill(VALUES.riscos);
    await field.beneficios(page).fill(VALUES.beneficios);
    await field.cuidados(page).fill(VALUES.cuidados);
    await field.valor(page).fill(VALUES.valor);
    expect(await page.getByText("3 itens").count()).toBe(2);
    await page.getByText("2 itens").waitFor();
    await page.getByRole("button", { name: "Salvar Templates" }).click();
    await page.getByText("Templates salvos com sucesso!").waitFor();
    await snap(page, "template-defaults-saved-desktop");

    await page.reload();
    await page.getByRole("heading", { name: "Config. Templates" }).waitFor();
    await expect.poll(() => field.riscos(page).inputValue()).toBe(VALUES.riscos);
    expect(await formValues(page)).toEqual(VALUES);

    // Saving fails: error toast, what was typed stays in the form, nothing is stored.
    await page.route("**/api/me/template-defaults", (route) =>
      route.request().method() === "PUT"
        ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ code: "INTERNAL", message: "Erro interno" }),
          })
        : route.continue(),
    );
    await field.valor(page).fill("R$ 2.000,00");
    await page.getByRole("button", { name: "Salvar Templates" }).click();
    await page.getByText("Erro ao salvar templates. Tente novamente.").waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Salvar Templates" }).isEnabled()).toBe(true);
    expect(await field.valor(page).inputValue()).toBe("R$ 2.000,00");
    expect(await field.riscos(page).inputValue()).toBe(VALUES.riscos);
    await snap(page, "template-defaults-error-desktop");
    await page.unroute("**/api/me/template-defaults");
    const stored = await page.request.get("/api/me/template-defaults");
    expect((await stored.json()).template_valor_procedimento).toBe(VALUES.valor);

    // A blank field is stored as empty (null) and comes back blank.
    await field.valor(page).fill("   ");
    await field.beneficios(page).fill("");
    await page.getByRole("button", { name: "Salvar Templates" }).click();
    await expect.poll(() => page.getByText("Templates salvos com sucesso!").count()).toBeGreaterThanOrEqual(1);
    await expect
      .poll(async () => (await (await page.request.get("/api/me/template-defaults")).json()) as Record<string, unknown>)
      .toEqual({
        template_riscos: VALUES.riscos,
        template_beneficios: null,
        template_cuidados_pos: VALUES.cuidados,
        template_valor_procedimento: null,
      });
    await page.reload();
    await expect.poll(() => field.cuidados(page).inputValue()).toBe(VALUES.cuidados);
    expect(await formValues(page)).toEqual({ ...VALUES, beneficios: "", valor: "" });

    // The only console errors are the browser's report of the 500 we forced.
    expect(errors.filter((e) => !/status of 500/.test(e))).toEqual([]);
    await context.close();
  });

  it("fits a phone", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, PHONE);
    await signIn(page, account.email, account.password);
    const response = await page.request.put("/api/me/template-defaults", {
      data: {
        template_riscos: "Dor local\nEdema",
        template_beneficios: null,
        template_cuidados_pos: "Repouso",
        template_valor_procedimento: "R$ 800,00",
      },
    });
    expect(response.status()).toBe(200);

    await openScreen(page);
    await expect.poll(() => field.riscos(page).inputValue()).toBe("Dor local\nEdema");
    expect(await field.valor(page).inputValue()).toBe("R$ 800,00");
    await page.getByText("2 itens").waitFor();
    // No sideways scrolling, and the save button spans the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const button = await page.getByRole("button", { name: "Salvar Templates" }).boundingBox();
    expect(button?.width ?? 0).toBeGreaterThan(PHONE.width * 0.6);
    await snap(page, "template-defaults-phone");

    await field.beneficios(page).fill("Alívio da dor");
    await page.getByRole("button", { name: "Salvar Templates" }).click();
    await page.getByText("Templates salvos com sucesso!").waitFor();
    await page.reload();
    await expect.poll(() => field.beneficios(page).inputValue()).toBe("Alívio da dor");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the default value is a currency field; a free text saved before stays a text field, shown and editable", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const saved = await page.request.put("/api/me/template-defaults", {
      data: {
        template_riscos: null,
        template_beneficios: null,
        template_cuidados_pos: null,
        template_valor_procedimento: "Conforme orçamento",
      },
    });
    expect(saved.status()).toBe(200);

    // The free text, as it was saved, in a plain text field that edits it.
    await openScreen(page);
    await expect.poll(() => field.valor(page).inputValue()).toBe("Conforme orçamento");
    await field.valor(page).fill("Conforme orçamento aprovado");
    await page.getByRole("button", { name: "Salvar Templates" }).click();
    await page.getByText("Templates salvos com sucesso!").waitFor();
    await expect
      .poll(
        async () =>
          ((await (await page.request.get("/api/me/template-defaults")).json()) as Record<string, unknown>)
            .template_valor_procedimento,
      )
      .toBe("Conforme orçamento aprovado");
    await page.reload();
    await expect.poll(() => field.valor(page).inputValue()).toBe("Conforme orçamento aprovado");
    await snap(page, "template-defaults-free-text-valor-desktop");

    // Informar valor em R$: the currency field, as the document's "Valor do procedimento" types it.
    await page.getByRole("button", { name: "Informar valor em R$" }).click();
    expect(await field.valor(page).inputValue()).toBe("");
    await field.valor(page).pressSequentially("2500");
    expect(await field.valor(page).inputValue()).toBe("R$ 2.500");
    await field.valor(page).blur();
    expect(await field.valor(page).inputValue()).toBe("R$ 2.500,00");
    expect(await page.getByRole("button", { name: "Informar valor em R$" }).count()).toBe(0);
    await page.getByRole("button", { name: "Salvar Templates" }).click();
    await expect
      .poll(
        async () =>
          ((await (await page.request.get("/api/me/template-defaults")).json()) as Record<string, unknown>)
            .template_valor_procedimento,
      )
      .toBe("R$ 2.500,00");

    // After a reload the amount is in the currency field (letters are not taken).
    await page.reload();
    await expect.poll(() => field.valor(page).inputValue()).toBe("R$ 2.500,00");
    await field.valor(page).fill("");
    await field.valor(page).pressSequentially("abc");
    expect(await field.valor(page).inputValue()).toMatch(/^(R\$ ?)?$/);
    // A field left with only its "R$ " is stored as empty.
    await page.getByRole("button", { name: "Salvar Templates" }).click();
    await expect
      .poll(
        async () =>
          ((await (await page.request.get("/api/me/template-defaults")).json()) as Record<string, unknown>)
            .template_valor_procedimento,
      )
      .toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});
