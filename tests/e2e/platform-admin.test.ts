import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { profiles, tenants } from "../../src/db/schema.js";
import { professionalSignUp } from "../helpers/factories.js";
import { newStaff } from "../helpers/sessions.js";
import { signIn } from "./accounts.js";
import { PHONE, pageWidth, snap } from "./browser.js";
import { type OwnApp, startOwnApp } from "./own-app.js";

/**
 * The platform administrator's clinic picker on Config. Templates (decision 079, spec part 2 §6:
 * saas_admin needs a clinic context, `?clinica_id=`, to list specialties): choosing a clinic
 * shows that clinic's specialties and not another's. Its own app: the role saas_admin is given
 * in the database, as no screen grants it.
 */
let own: OwnApp;
let app: FastifyInstance;
let database: Database;
let admin: Page;

async function clinic(nome: string, signUp: Record<string, unknown>): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/api/auth/sign-up",
    payload: professionalSignUp({ nome, ...signUp }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const tenantId = response.json().tenant_id as string;
  await database.db.update(tenants).set({ nome }).where(eq(tenants.id, tenantId));
  return tenantId;
}

beforeAll(async () => {
  own = await startOwnApp();
  ({ app, database, staff: admin } = own);
}, 120_000);
afterAll(async () => {
  await own?.close();
});

describe("platform administrator's clinic context (decision 079)", () => {
  it("chooses a clinic and sees that clinic's specialties, not another's", async () => {
    const skin = await clinic("Clínica Pele Viva", {
      conselho_tipo: "CRM",
      especialidades: [
        { especialidade: "dermatologia", areas_atuacao: [], rqe: "45678" },
        { especialidade: "cardiologia", areas_atuacao: [], rqe: "45679" },
      ],
    });
    const teeth = await clinic("Clínica Sorriso Reto", {
      conselho_tipo: "CRO",
      especialidades: [{ especialidade: "ortodontia", areas_atuacao: [], rqe: null }],
    });
    // The platform's administrator belongs to a clinic of its own, as every profile does.
    const home = await clinic("Plataforma Consentir", {});
    const platform = await newStaff(app, database, home, "admin");
    await database.db.update(profiles).set({ role: "saas_admin" }).where(eq(profiles.id, platform.profileId));
    await signIn(admin, platform.email, platform.password);

    await admin.goto("/profile/templates");
    // The card is named by its title (aria-labelledby).
    const card = admin.locator('[aria-labelledby="clinic-specialties-title"]');
    await card.getByText("Especialidades por clínica", { exact: true }).waitFor();
    await card.getByText("Escolha uma clínica para ver as especialidades dela.").waitFor();
    const picker = card.getByLabel("Clínica", { exact: true });
    await admin.waitForFunction(() => document.querySelectorAll("select option").length > 3);
    const list = card.getByRole("list", { name: "Especialidades da clínica" });

    const asked: string[] = [];
    admin.on("request", (request) => {
      if (request.url().includes("/api/templates/specialties")) asked.push(new URL(request.url()).search);
    });
    await picker.selectOption({ label: "Clínica Pele Viva" });
    await list.getByText("Dermatologia", { exact: true }).waitFor();
    await list.getByText("Cardiologia", { exact: true }).waitFor();
    expect(await list.getByText("Ortodontia", { exact: true }).count()).toBe(0);
    await snap(admin, "platform-admin-specialties", { fullPage: false });

    await picker.selectOption({ label: "Clínica Sorriso Reto" });
    await list.getByText("Ortodontia", { exact: true }).waitFor();
    expect(await list.getByRole("listitem").allTextContents()).toEqual(["Ortodontia"]);
    expect(asked).toEqual([`?clinica_id=${skin}`, `?clinica_id=${teeth}`]);

    await admin.setViewportSize(PHONE);
    await list.getByText("Ortodontia", { exact: true }).waitFor();
    expect(await pageWidth(admin)).toBeLessThanOrEqual(PHONE.width);
    await snap(admin, "platform-admin-specialties-phone", { fullPage: false });
    expect(own.errors).toEqual([]);
  });
});
