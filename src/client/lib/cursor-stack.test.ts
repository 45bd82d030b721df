import { describe, expect, it } from "vitest";
import { currentCursor, nextPage, previousPage, shownSoFar } from "./cursor-stack";

describe("cursor stack", () => {
  it("goes forward with next_cursor and back by popping", () => {
    let stack = { key: "k", cursors: [] as string[] };
    expect(currentCursor(stack)).toBeUndefined();
    expect(shownSoFar(stack, 20, 20)).toBe(20);
    stack = nextPage(stack, "c1");
    stack = nextPage(stack, "c2");
    expect(currentCursor(stack)).toBe("c2");
    expect(shownSoFar(stack, 7, 20)).toBe(47);
    expect(nextPage(stack, null)).toBe(stack);
    stack = previousPage(stack);
    expect(currentCursor(stack)).toBe("c1");
    stack = previousPage(previousPage(stack));
    expect(stack.cursors).toEqual([]);
  });
});
