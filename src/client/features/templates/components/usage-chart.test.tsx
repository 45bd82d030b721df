import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { UsageChart } from "./usage-chart";

describe("UsageChart", () => {
  it("draws bars proportional to the counts with an accessible summary", () => {
    const out = renderToStaticMarkup(
      <UsageChart
        months={[
          { mes: "2026-01", total: 0 },
          { mes: "2026-02", total: 5 },
          { mes: "2026-03", total: 10 },
        ]}
      />,
    );
    expect(out).toContain('role="img"');
    expect(out).toContain("fevereiro de 2026: 5");
    const heights = [...out.matchAll(/height:(\d+)%/g)].map((m) => Number(m[1]));
    expect(heights).toEqual([0, 50, 100]);
    expect(out).toContain("fev/26");
  });
});
