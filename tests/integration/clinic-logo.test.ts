import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { ERRORS } from "../../src/shared/errors.js";
import { LOGO_MAX_BYTES } from "../../src/shared/clinic-logo.js";
import { LOGO_RENDER_TIMEOUT_S } from "../../src/server/services/settings/logo/normalize-clinic-logo.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { signableDocument, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let owner: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

const upload = (who: SignedIn | null, bytes: Buffer | string, contentType = "image/png") =>
  ctx.app.inject({
    method: "PUT",
    url: "/api/settings/clinic/logo",
    headers: { ...(who ? { cookie: who.cookie } : {}), "content-type": contentType },
    payload: bytes,
  });
const call = (who: SignedIn | null, method: "GET" | "DELETE", url: string) =>
  ctx.app.inject({ method, url, headers: who ? { cookie: who.cookie } : {} });

/** A wide orange logo with a transparent corner, as clinics' logos come. */
async function orangeLogo(width = 900, height = 300): Promise<Buffer> {
  const size = Math.floor(Math.min(width, height) / 3);
  const corner = await sharp({
    create: { width: size, height: size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } },
  })
    .png()
    .toBuffer();
  return (
    sharp({ create: { width, height, channels: 4, background: { r: 240, g: 120, b: 0, alpha: 1 } } })
      // Cut the corner out: transparent there.
      .composite([{ input: corner, top: 0, left: 0, blend: "dest-out" }])
      .png()
      .toBuffer()
  );
}

/** The number of image XObjects in a PDF. */
function imageCount(pdf: Buffer): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-logo-"));
  const file = path.join(dir, "doc.pdf");
  writeFileSync(file, pdf);
  const listing = execFileSync("pdfimages", ["-list", file]).toString("utf8");
  return listing
    .split("\n")
    .slice(2)
    .filter((line) => line.trim()).length;
}

async function draftPdf(who: SignedIn): Promise<Buffer> {
  const { documentId } = await signableDocument(ctx.app, who);
  const response = await call(who, "GET", `/api/documents/${documentId}/pdf`);
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

describe("the clinic's logo", () => {
  it("is uploaded by the owner, re-encoded as a PNG on white, audited, drawn on every page of new PDFs and served by its hash", async () => {
    expect((await call(owner, "GET", "/api/settings/clinic/logo")).json()).toEqual({ logo: null });
    const withoutLogo = imageCount(await draftPdf(owner));

    const saved = await upload(owner, await orangeLogo());
    expect(saved.statusCode, saved.body).toBe(200);
    const { logo } = saved.json();
    expect(logo).toMatchObject({
      width: 600,
      height: 200,
      formato_original: "png",
      url: `/api/public/clinic-logos/${logo.sha256}.png`,
    });
    expect((await call(owner, "GET", "/api/settings/clinic/logo")).json()).toEqual({ logo });

    const image = await ctx.app.inject({ method: "GET", url: logo.url });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["cache-control"]).toContain("immutable");
    expect(image.headers["x-content-type-options"]).toBe("nosniff");
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(["png", 600, 200, false]);
    // The transparent corner became white.
    const { data } = await sharp(image.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([255, 255, 255]);

    const pdf = await draftPdf(owner);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", ["-"], { input: pdf }).toString())?.[1]);
    // The header is drawn on every page; pdfkit embeds the image once and draws it per page.
    expect(imageCount(pdf)).toBeGreaterThanOrEqual(withoutLogo + pages);

    const events = await rawRows<{ action: string; data: Record<string, unknown> }>(
      ctx.database.db,
      sql`select action, data from audit_events where tenant_id = ${owner.tenantId} and action like 'settings.logo%' order by created_at`,
    );
    expect(events).toEqual([
      {
        action: "settings.logo_updated",
        data: expect.objectContaining({ sha256: logo.sha256, formato_original: "png", largura: 600, altura: 200 }),
      },
    ]);
  });

  it("shows on the signing page of the clinic's documents, and only there", async () => {
    const { documentId } = await signableDocument(ctx.app, owner);
    const sent = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      headers: { cookie: owner.cookie },
      payload: {},
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const page = await ctx.app.inject({ method: "GET", url: `/api/public/sign/${tokenOf(sent.json().link)}` });
    const current = (await call(owner, "GET", "/api/settings/clinic/logo")).json().logo;
    expect(page.json().documento.clinica_logo_url).toBe(current.url);

    const { documentId: otherDoc } = await signableDocument(ctx.app, other);
    const otherSent = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${otherDoc}/send`,
      headers: { cookie: other.cookie },
      payload: {},
    });
    const otherPage = await ctx.app.inject({
      method: "GET",
      url: `/api/public/sign/${tokenOf(otherSent.json().link)}`,
    });
    expect(otherPage.json().documento.clinica_logo_url).toBeNull();
  });

  it("accepts an SVG and keeps only its drawing; removing it is audited and new PDFs go back to the name", async () => {
    const clinic = await newClinic(ctx.app);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><script>alert(1)</script><rect width="120" height="40" fill="#0a7"/></svg>`;
    const saved = await upload(clinic, svg, "image/svg+xml");
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().logo).toMatchObject({ formato_original: "svg", width: 600, height: 200 });
    const served = await ctx.app.inject({ method: "GET", url: saved.json().logo.url });
    expect(served.rawPayload.subarray(1, 4).toString()).toBe("PNG");
    expect(served.body).not.toContain("script");

    const removed = await call(clinic, "DELETE", "/api/settings/clinic/logo");
    expect(removed.json()).toEqual({ logo: null });
    expect((await ctx.app.inject({ method: "GET", url: saved.json().logo.url })).statusCode).toBe(404);
    const withoutLogo = imageCount(await draftPdf(clinic));
    const actions = await rawRows<{ action: string }>(
      ctx.database.db,
      sql`select action from audit_events where tenant_id = ${clinic.tenantId} and action like 'settings.logo%' order by created_at`,
    );
    expect(actions.map((a) => a.action)).toEqual(["settings.logo_updated", "settings.logo_removed"]);
    // Only the signature placeholders' images (none in a draft), no logo.
    expect(withoutLogo).toBe(0);
  });

  it("answers bad files with a pt-BR 4xx, never a 500, and changes nothing", async () => {
    const clinic = await newClinic(ctx.app);
    const expectError = (
      response: { statusCode: number; json(): { code: string; message: string } },
      code: keyof typeof ERRORS,
    ) => {
      expect(response.statusCode).toBe(ERRORS[code].status);
      expect(response.json()).toMatchObject({ code, message: ERRORS[code].message });
    };
    expectError(await upload(clinic, Buffer.alloc(LOGO_MAX_BYTES + 10, 1)), "LOGO_TOO_LARGE");
    expectError(await upload(clinic, Buffer.alloc(5 * 1024 * 1024, 1), "image/jpeg"), "LOGO_TOO_LARGE");
    expectError(await upload(clinic, "GIF89a not really"), "LOGO_UNSUPPORTED");
    expectError(
      await upload(
        clinic,
        await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
          .gif()
          .toBuffer(),
        "image/png",
      ),
      "LOGO_UNSUPPORTED",
    );
    expectError(await upload(clinic, "<svg xmlns='http://www.w3.org/2000/svg'><rect", "image/svg+xml"), "LOGO_INVALID");
    expectError(await upload(clinic, (await orangeLogo()).subarray(0, 200)), "LOGO_INVALID");
    expectError(await upload(clinic, Buffer.alloc(0)), "LOGO_INVALID");
    expectError(await upload(clinic, JSON.stringify({ png: "x" }), "application/json"), "LOGO_UNSUPPORTED");
    expectError(await upload(clinic, "x", "text/html"), "LOGO_UNSUPPORTED");
    expect((await call(clinic, "GET", "/api/settings/clinic/logo")).json()).toEqual({ logo: null });
    expect((await ctx.app.inject({ method: "GET", url: "/api/public/clinic-logos/nada.png" })).statusCode).toBe(400);
    expect(
      (await ctx.app.inject({ method: "GET", url: `/api/public/clinic-logos/${"0".repeat(64)}.png` })).statusCode,
    ).toBe(404);
  });

  it("refuses an SVG that takes too long to draw after LOGO_RENDER_TIMEOUT_S, not minutes, and stays usable (decision 049)", async () => {
    const clinic = await newClinic(ctx.app);
    const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">${body}</svg>`;
    // A few kB that chain thousands of blurs, and a path dashed into millions of segments: minutes of librsvg.
    const heavy = [
      svg(
        `<filter id="f" x="-50%" y="-50%" width="200%" height="200%">${'<feGaussianBlur stdDeviation="50"/>'.repeat(6000)}</filter><rect width="100" height="100" filter="url(#f)"/>`,
      ),
      svg(
        `<path d="M0 0 ${"L100 100 L0 100 L100 0 ".repeat(40000)}" stroke="black" stroke-width="50" stroke-dasharray="0.001"/>`,
      ),
    ];
    for (const body of heavy) {
      const started = Date.now();
      const response = await upload(clinic, body, "image/svg+xml");
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: "LOGO_TOO_COMPLEX", message: ERRORS.LOGO_TOO_COMPLEX.message });
      // The child drawing it is killed at the deadline, counted from when it has loaded: seconds, not
      // minutes (a child started through tsx on a busy CI machine takes a while to load).
      expect(Date.now() - started).toBeLessThan((LOGO_RENDER_TIMEOUT_S + 25) * 1000);
    }
    expect((await call(clinic, "GET", "/api/settings/clinic/logo")).json()).toEqual({ logo: null });
    // The next logo is drawn as usual.
    const saved = await upload(clinic, svg(`<rect width="100" height="100" fill="#0a7"/>`), "image/svg+xml");
    expect(saved.statusCode, saved.body).toBe(200);
  }, 120_000);

  it("is the owner's and administrators' only: 403 to other roles, 401 signed out; each clinic sees its own", async () => {
    const admin = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
    expect((await call(admin, "GET", "/api/settings/clinic/logo")).json().logo).not.toBeNull();
    for (const role of ["atendente", "profissional", "auditor"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, owner.tenantId, role);
      const put = await upload(staff, await orangeLogo(100, 50));
      expect(put.statusCode).toBe(403);
      expect(put.json().code).toBe("SETTINGS_ACCESS_DENIED");
      expect((await call(staff, "DELETE", "/api/settings/clinic/logo")).statusCode).toBe(403);
    }
    expect((await upload(null, await orangeLogo(100, 50))).statusCode).toBe(401);
    // The other clinic's owner sees none and cannot remove this one.
    expect((await call(other, "GET", "/api/settings/clinic/logo")).json()).toEqual({ logo: null });
    expect((await call(other, "DELETE", "/api/settings/clinic/logo")).statusCode).toBe(200);
    expect((await call(owner, "GET", "/api/settings/clinic/logo")).json().logo).not.toBeNull();
  });
});
