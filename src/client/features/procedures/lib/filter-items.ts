/** Lower-case and without accents, so "beneficio" finds "Benefício". */
export function normalizeSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
}

/** The items whose title, description or tag contain the typed term (accent- and case-insensitive). */
export function filterItems<
  T extends { titulo: string; descricao: string; categoria: string | null; periodo: string | null },
>(items: readonly T[], term: string): T[] {
  const needle = normalizeSearch(term);
  if (!needle) return [...items];
  return items.filter((item) =>
    [item.titulo, item.descricao, item.categoria ?? "", item.periodo ?? ""].some((text) =>
      normalizeSearch(text).includes(needle),
    ),
  );
}
