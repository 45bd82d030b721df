import { describe, expect, it } from "vitest";
import { createWorkGate, GateFull } from "./work-gate";

describe("createWorkGate", () => {
  it("runs one at a time, queues up to the limit, refuses past it, and keeps going after a failure", async () => {
    const gate = createWorkGate({ running: 1, waiting: 2 });
    const order: string[] = [];
    let open!: () => void;
    const first = gate.run(() => new Promise<void>((resolve) => (open = resolve)).then(() => order.push("a")));
    const second = gate.run(async () => {
      order.push("b");
      throw new Error("falhou");
    });
    const third = gate.run(async () => order.push("c"));
    expect(gate.active).toBe(1);
    expect(gate.queued).toBe(2);
    await expect(gate.run(async () => "d")).rejects.toBeInstanceOf(GateFull);
    open();
    await first;
    await expect(second).rejects.toThrow("falhou");
    await third;
    expect(order).toEqual(["a", "b", "c"]);
    expect(gate.active).toBe(0);
    expect(await gate.run(async () => "e")).toBe("e");
  });
});
