import { describe, expect, it } from "vitest";
import { monthOverMonth } from "./trend";

describe("monthOverMonth", () => {
  it("has no trend without last month's baseline", () => {
    expect(monthOverMonth(5, 0)).toBeNull();
    expect(monthOverMonth(0, 0)).toBeNull();
  });

  it("writes the real change with a sign and one decimal at most, in pt-BR", () => {
    expect(monthOverMonth(3, 2)).toEqual({ text: "+50% em relação ao mês passado", direction: "up" });
    expect(monthOverMonth(1, 3)).toEqual({ text: "−66,7% em relação ao mês passado", direction: "down" });
    expect(monthOverMonth(4, 4)).toEqual({ text: "0% em relação ao mês passado", direction: "flat" });
    expect(monthOverMonth(0, 7)).toEqual({ text: "−100% em relação ao mês passado", direction: "down" });
  });
});
