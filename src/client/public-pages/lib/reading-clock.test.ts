import { describe, expect, it } from "vitest";
import { ReadingClock } from "./reading-clock";

describe("ReadingClock (decision 052)", () => {
  it("counts a section only while it is visible and the page is in the foreground", () => {
    const clock = new ReadingClock(0);
    clock.setVisible("s1", true, 1_000);
    clock.setForeground(false, 4_000); // 3 s visible in the foreground
    clock.setForeground(true, 60_000); // 56 s in the background: not counted
    clock.setVisible("s2", true, 61_000); // s1 +1 s
    clock.setVisible("s1", false, 63_000); // s1 +2 s, s2 +2 s
    expect(clock.take(70_000)).toEqual({
      secoes: [
        { id: "s1", ms: 6_000 },
        { id: "s2", ms: 9_000 },
      ],
    });
  });

  it("never counts a section that was never visible, nor time before it appeared", () => {
    const clock = new ReadingClock(0);
    clock.setVisible("s3", true, 50_000);
    const batch = clock.take(52_000);
    expect(batch?.secoes).toEqual([{ id: "s3", ms: 2_000 }]);
  });

  it("sends each stretch of time once, and nothing when nothing happened", () => {
    const clock = new ReadingClock(0);
    clock.setVisible("s1", true, 0);
    expect(clock.take(10_000)?.secoes).toEqual([{ id: "s1", ms: 10_000 }]);
    expect(clock.take(15_000)?.secoes).toEqual([{ id: "s1", ms: 5_000 }]);
    clock.setForeground(false, 15_000);
    expect(clock.take(30_000)).toBeNull();
  });

  it("a clock going backwards adds nothing", () => {
    const clock = new ReadingClock(10_000);
    clock.setVisible("s1", true, 10_000);
    expect(clock.take(5_000)).toBeNull();
  });

  it("carries the jump, 'Ouvir' and large text once", () => {
    const clock = new ReadingClock(0);
    clock.jump();
    clock.heardAloud("s2");
    clock.largeText(true);
    expect(clock.take(1)).toEqual({ secoes: [], salto: true, ouvir: ["s2"], texto_grande: true });
    expect(clock.take(2)).toBeNull();
  });
});
