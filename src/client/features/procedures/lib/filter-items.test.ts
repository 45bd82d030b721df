import { describe, expect, it } from "vitest";
import { filterItems, normalizeSearch } from "./filter-items";

const item = (titulo: string, extra: Partial<{ descricao: string; categoria: string; periodo: string }> = {}) => ({
  titulo,
  descricao: extra.descricao ?? "",
  categoria: extra.categoria ?? null,
  periodo: extra.periodo ?? null,
});

describe("filterItems", () => {
  it("ignores case and accents", () => {
    expect(normalizeSearch("  Hematóma ")).toBe("hematoma");
    const items = [item("Hematoma"), item("Infecção"), item("Edema", { categoria: "Comum" })];
    expect(filterItems(items, "INFECCAO").map((i) => i.titulo)).toEqual(["Infecção"]);
    expect(filterItems(items, "comum").map((i) => i.titulo)).toEqual(["Edema"]);
    expect(filterItems(items, " ")).toHaveLength(3);
  });
});
