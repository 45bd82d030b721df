import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let owner: SignedIn;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await newClinic(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

const call = (who: SignedIn | null, method: "GET" | "PUT", payload?: unknown) =>
  ctx.app.inject({
    method,
    url: "/api/me/template-defaults",
    payload: payload as object,
    headers: who ? { cookie: who.cookie } : {},
  });

const EMPTY = {
  template_riscos: null,
  template_beneficios: null,
  template_cuidados_pos: null,
  template_valor_procedimento: null,
};

describe("personal template defaults (/profile/templates)", () => {
  it("starts empty, saves and reads back the four texts, with an audit event", async () => {
    const first = await call(owner, "GET");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual(EMPTY);

    const values = {
      template_riscos: "Hematoma\nInfecção\nAssimetria",
      template_beneficios: "Melhora do contorno facial",
      template_cuidados_pos: "Evitar sol por 30 dias",
      template_valor_procedimento: "R$ 4.500,00",
    };
    const saved = await call(owner, "PUT", values);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(values);
    expect((await call(owner, "GET")).json()).toEqual(values);

    const [stored] = await rawRows<Record<string, string | null>>(
      ctx.database.db,
      sql`select template_riscos, template_beneficios, template_cuidados_pos, template_valor_procedimento from profiles where id = ${owner.profileId}`,
    );
    expect(stored).toEqual(values);
    const events = await rawRows<{ action: string; actor_profile_id: string }>(
      ctx.database.db,
      sql`select action, actor_profile_id from audit_events where entity_id = ${owner.profileId} and action = 'profile.template_defaults_saved'`,
    );
    expect(events).toEqual([{ action: "profile.template_defaults_saved", actor_profile_id: owner.profileId }]);
  });

  it("turns blank and missing fields into null", async () => {
    const who = await newClinic(ctx.app);
    await call(who, "PUT", {
      template_riscos: "Dor",
      template_beneficios: "Bem-estar",
      template_cuidados_pos: "Repouso",
      template_valor_procedimento: "R$ 100,00",
    });
    const cleared = await call(who, "PUT", {
      template_riscos: "   ",
      template_beneficios: "",
      template_cuidados_pos: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toEqual(EMPTY);
    expect((await call(who, "GET")).json()).toEqual(EMPTY);
  });

  it("changes only the signed-in user's own profile, whatever the role", async () => {
    const mine = { ...EMPTY, template_riscos: "Texto do proprietário" };
    await call(owner, "PUT", mine);
    for (const role of ["atendente", "auditor", "juridico"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, owner.tenantId, role);
      const response = await call(staff, "PUT", { template_valor_procedimento: `Valor de ${role}` });
      expect(response.statusCode, role).toBe(200);
      expect(response.json()).toEqual({ ...EMPTY, template_valor_procedimento: `Valor de ${role}` });
      expect((await call(staff, "GET")).json().template_valor_procedimento).toBe(`Valor de ${role}`);
    }
    expect((await call(owner, "GET")).json()).toEqual(mine);
  });

  it("refuses overlong or mistyped values and anonymous calls", async () => {
    const tooLong = await call(owner, "PUT", { template_valor_procedimento: "9".repeat(201) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().issues).toContainEqual({
      path: "template_valor_procedimento",
      message: "Use no máximo 200 caracteres",
    });
    expect((await call(owner, "PUT", { template_riscos: 42 })).statusCode).toBe(400);
    expect((await call(owner, "PUT", { template_riscos: "x".repeat(20_001) })).statusCode).toBe(400);
    expect((await call(null, "GET")).statusCode).toBe(401);
    expect((await call(null, "PUT", EMPTY)).statusCode).toBe(401);
  });
});

describe("the platform administrator chooses a clinic to list its specialties (part 2 §6)", () => {
  const specialtiesOf = (who: SignedIn, clinicaId?: string) =>
    ctx.app.inject({
      method: "GET",
      url:
        clinicaId === undefined ? "/api/templates/specialties" : `/api/templates/specialties?clinica_id=${clinicaId}`,
      headers: { cookie: who.cookie },
    });

  it("lists clinics and another clinic's specialties for saas_admin only; bad or foreign ids are pt-BR 4xx", async () => {
    const other = await newClinic(ctx.app);
    await ctx.database.db.execute(
      sql`update profiles set conselho_tipo = 'CRM', especialidades = ${JSON.stringify([{ especialidade: "dermatologia", areas_atuacao: [], rqe: "123" }])}::jsonb where id = ${other.profileId}`,
    );
    const platform = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
    await ctx.database.db.execute(sql`update profiles set role = 'saas_admin' where id = ${platform.profileId}`);

    const clinics = await ctx.app.inject({
      method: "GET",
      url: "/api/templates/specialty-clinics",
      headers: { cookie: platform.cookie },
    });
    expect(clinics.statusCode, clinics.body).toBe(200);
    expect(clinics.json().items.map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining([owner.tenantId, other.tenantId]),
    );

    const chosen = await specialtiesOf(platform, other.tenantId);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toEqual({ items: ["Dermatologia"], fallback: false });

    const malformed = await specialtiesOf(platform, "not-a-uuid");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe("Clínica inválida");
    const missing = await specialtiesOf(platform, "00000000-0000-4000-8000-000000000000");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("Clínica não encontrada.");

    // The other clinic's own owner and this clinic's owner: only their own clinic.
    const foreign = await specialtiesOf(owner, other.tenantId);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(
      "Acesso negado: só o administrador da plataforma pode consultar outra clínica.",
    );
    expect((await specialtiesOf(owner, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(403);
    expect((await specialtiesOf(other, other.tenantId)).json()).toEqual({ items: ["Dermatologia"], fallback: false });
    const ownerClinics = await ctx.app.inject({
      method: "GET",
      url: "/api/templates/specialty-clinics",
      headers: { cookie: owner.cookie },
    });
    expect(ownerClinics.statusCode).toBe(403);
    expect(ownerClinics.json().message).toBe("Você não tem permissão para esta ação.");
  });
});
