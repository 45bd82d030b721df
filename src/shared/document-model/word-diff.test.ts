import { describe, expect, it } from "vitest";
import { diffStructures } from "./version-diff.js";
import { diffWords, tokenizeWords } from "./word-diff.js";

const join = (parts: ReturnType<typeof diffWords>, keep: "before" | "after") =>
  parts
    .filter((p) => p.kind === "same" || p.kind === (keep === "before" ? "removed" : "added"))
    .map((p) => p.text)
    .join("");

describe("diffWords", () => {
  it("marks a changed word in the middle and keeps the rest", () => {
    expect(diffWords("Evitar sol por 15 dias.", "Evitar sol por 30 dias.")).toEqual([
      { kind: "same", text: "Evitar sol por " },
      { kind: "removed", text: "15" },
      { kind: "added", text: "30" },
      { kind: "same", text: " dias." },
    ]);
  });

  it("finds insertions and removals, and both sides can be rebuilt from the parts", () => {
    const before = "Repouso de 48 horas e compressas frias";
    const after = "Repouso **absoluto** de 48 horas, compressas frias e hidratação";
    const parts = diffWords(before, after);
    expect(join(parts, "before")).toBe(before);
    expect(join(parts, "after")).toBe(after);
    expect(parts.filter((p) => p.kind === "added").map((p) => p.text)).toContain("**absoluto** ");
  });

  it("handles empty sides and identical text", () => {
    expect(diffWords("", "novo")).toEqual([{ kind: "added", text: "novo" }]);
    expect(diffWords("velho", "")).toEqual([{ kind: "removed", text: "velho" }]);
    expect(diffWords("igual", "igual")).toEqual([{ kind: "same", text: "igual" }]);
  });

  it("splits words, spaces and punctuation", () => {
    expect(tokenizeWords("Olá, {{paciente_nome}}!")).toEqual([
      "Olá",
      ",",
      " ",
      "{",
      "{",
      "paciente_nome",
      "}",
      "}",
      "!",
    ]);
  });

  it("stays fast on long texts with a change at each end", () => {
    const words = Array.from({ length: 4000 }, (_, i) => `palavra${i}`).join(" ");
    const started = performance.now();
    const parts = diffWords(`A ${words} Z`, `B ${words} Y`);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(join(parts, "after")).toBe(`B ${words} Y`);
  });
});

describe("diffStructures", () => {
  const base = {
    title: "Termo",
    introduction: "Intro",
    sections: [
      { id: "a", type: "paragraph" as const, title: "Riscos", content: "Hematoma leve" },
      { id: "b", type: "paragraph" as const, title: "Custos", content: "R$ 100" },
      { id: "c", type: "bullet_list" as const, title: "Cuidados", content: "Gelo" },
    ],
  };

  it("reports added, removed, changed and unchanged sections in reading order", () => {
    const after = {
      ...base,
      introduction: "Introdução",
      sections: [
        { id: "a", type: "paragraph" as const, title: "Riscos", content: "Hematoma moderado" },
        { id: "c", type: "numbered_list" as const, title: "Cuidados", content: "Gelo" },
        { id: "d", type: "paragraph" as const, title: "LGPD", content: "Dados" },
      ],
    };
    const diff = diffStructures(base, after);
    expect(diff.sections.map((s) => [s.id, s.status])).toEqual([
      ["a", "changed"],
      ["b", "removed"],
      ["c", "changed"],
      ["d", "added"],
    ]);
    expect(diff.sections[2]!.typeChanged).toBe(true);
    expect(diff.sections[0]!.content.parts).toEqual([
      { kind: "same", text: "Hematoma " },
      { kind: "removed", text: "leve" },
      { kind: "added", text: "moderado" },
    ]);
    expect(diff.counts).toEqual({ added: 1, removed: 1, changed: 2 });
    expect(diff.introduction.status).toBe("changed");
    expect(diff.title.status).toBe("unchanged");
  });

  it("finds nothing between a version and itself", () => {
    const diff = diffStructures(base, structuredClone(base));
    expect(diff.counts).toEqual({ added: 0, removed: 0, changed: 0 });
    expect(diff.sections.every((s) => s.status === "unchanged")).toBe(true);
  });
});
