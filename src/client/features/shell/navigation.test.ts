import { describe, expect, it } from "vitest";
import { documentTitleFor } from "@/lib/use-document-title";
import { bottomBarFor, likelyNextScreensFor, type NavViewer, pageTitle, sidebarFor } from "./navigation";

const viewer = (role: string, isOwner = false, tipo = "estabelecimento"): NavViewer => ({
  profile: { role, is_proprietario: isOwner },
  tenant: { tipo_perfil: tipo },
});
const labels = (v: NavViewer | null) => sidebarFor(v).flatMap((g) => g.items.map((i) => i.label));
const bar = (v: NavViewer | null) => bottomBarFor(v).map((i) => i.label);

describe("menus follow the role (src/shared/permissions.ts)", () => {
  it("shows an establishment's owner everything", () => {
    expect(labels(viewer("profissional", true))).toEqual([
      "Dashboard",
      "Pacientes",
      "Documentos",
      "Procedimentos",
      "Gestão de Conteúdo",
      "Templates",
      "Config. Templates",
      "Associar Conteúdo",
      "Usuários",
      "Integração",
      "Certificado Digital",
      "Configurações",
    ]);
    expect(bar(viewer("profissional", true))).toEqual(["Novo", "Assinar", "Avisos", "Perfil"]);
  });

  it("hides the administration from an attendant", () => {
    const seen = labels(viewer("atendente"));
    expect(seen).toContain("Pacientes");
    expect(seen).toContain("Associar Conteúdo");
    for (const hidden of ["Usuários", "Integração", "Configurações", "Certificado Digital"])
      expect(seen).not.toContain(hidden);
    expect(bar(viewer("atendente"))).toContain("Novo");
  });

  it("gives an administrator settings and integration but not users", () => {
    const seen = labels(viewer("admin"));
    expect(seen).toEqual(expect.arrayContaining(["Integração", "Configurações"]));
    expect(seen).not.toContain("Usuários");
  });

  it("leaves read-only roles without the editing screens and the new-document button", () => {
    for (const role of ["auditor", "juridico"]) {
      const seen = labels(viewer(role));
      expect(seen).toEqual(expect.arrayContaining(["Pacientes", "Documentos", "Templates"]));
      for (const hidden of ["Config. Templates", "Associar Conteúdo", "Usuários", "Integração", "Configurações"])
        expect(seen, role).not.toContain(hidden);
      expect(bar(viewer(role))).not.toContain("Novo");
      // Front-desk signing hands the device over in the staff member's name: writers only.
      expect(bar(viewer(role))).not.toContain("Assinar");
    }
    expect(bar(viewer("atendente"))).toContain("Assinar");
  });

  it("has no Usuários for an independent professional, who owns a one-person account", () => {
    const seen = labels(viewer("profissional", true, "profissional_independente"));
    expect(seen).not.toContain("Usuários");
    expect(seen).toContain("Configurações");
  });

  it("drops an empty group and, while the session loads, shows only unrestricted entries", () => {
    const groups = sidebarFor(null).map((g) => g.label);
    expect(labels(null)).toEqual(["Dashboard"]);
    expect(groups).toEqual(["Principal"]);
  });
});

describe("screens prefetched when idle (decision 033)", () => {
  it("are only the few likely next ones, not the whole menu", () => {
    expect(likelyNextScreensFor(viewer("profissional", true))).toEqual([
      "/documents",
      "/documents/create",
      "/patients",
    ]);
  });

  it("leave out what the viewer may not open, and everything while the session loads", () => {
    expect(likelyNextScreensFor(viewer("auditor"))).toEqual(["/documents", "/patients"]);
    expect(likelyNextScreensFor(null)).toEqual([]);
  });
});

describe("document title per screen", () => {
  it("names the screen first, then the app", () => {
    expect(documentTitleFor(pageTitle("/patients"))).toBe("Pacientes · Consentir");
    expect(documentTitleFor(pageTitle("/patients/create"))).toBe("Novo paciente · Consentir");
    expect(documentTitleFor(pageTitle("/patients/0b5a"))).toBe("Paciente · Consentir");
    expect(documentTitleFor(pageTitle("/documents/0b5a"))).toBe("Documento · Consentir");
    expect(documentTitleFor(pageTitle("/templates/0b5a/edit"))).toBe("Editar template · Consentir");
    expect(documentTitleFor(pageTitle("/profile/templates"))).toBe("Config. Templates · Consentir");
    expect(documentTitleFor(pageTitle("/"))).toBe("Dashboard · Consentir");
    expect(documentTitleFor(pageTitle("/nao-existe"))).toBe("Consentir");
  });
});
