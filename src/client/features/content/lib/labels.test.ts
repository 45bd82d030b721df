import { describe, expect, it } from "vitest";
import { selectedLabel } from "./labels";

describe("selectedLabel", () => {
  it("agrees in number", () => {
    expect(selectedLabel(0)).toBe("0 selecionados");
    expect(selectedLabel(1)).toBe("1 selecionado");
    expect(selectedLabel(3)).toBe("3 selecionados");
  });
});
