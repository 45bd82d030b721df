import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The import boundaries of eslint.config.js (decision 054), tried on small made-up files: each
// forbidden import must be reported, each allowed one must pass.
const eslint = new ESLint({ cwd: new URL("../../", import.meta.url).pathname });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("import boundaries", () => {
  it("src/shared imports nothing of the app", async () => {
    const file = "src/shared/schemas/example.ts";
    expect(await boundaryErrors(file, 'export { x } from "../../server/env.js";\n')).toHaveLength(1);
    expect(await boundaryErrors(file, 'export { x } from "../../db/schema.js";\n')).toHaveLength(1);
    expect(await boundaryErrors(file, 'export { x } from "@/lib/api";\n')).toHaveLength(1);
    expect(await boundaryErrors(file, 'export { x } from "../br/cpf.js";\n')).toEqual([]);
  });

  it("the server never imports the client, and the client never the server", async () => {
    expect(
      await boundaryErrors("src/server/routes/example.ts", 'export { x } from "../../client/lib/api";\n'),
    ).toHaveLength(1);
    expect(await boundaryErrors("src/server/routes/example.ts", 'export { x } from "@/lib/api";\n')).toHaveLength(1);
    expect(
      await boundaryErrors("src/client/lib/example.ts", 'export { x } from "../../server/env.js";\n'),
    ).toHaveLength(1);
    expect(await boundaryErrors("src/client/lib/example.ts", 'export { x } from "@shared/errors";\n')).toEqual([]);
  });

  it("a client feature reaches another only through its public entry", async () => {
    const file = "src/client/features/dashboard/components/example.tsx";
    expect(await boundaryErrors(file, 'export { x } from "@/features/documents/api/documents-api";\n')).toHaveLength(1);
    expect(await boundaryErrors(file, 'export { x } from "@/features/documents";\n')).toEqual([]);
    expect(await boundaryErrors(file, 'export { x } from "@/features/dashboard/lib/example";\n')).toEqual([]);
    expect(await boundaryErrors(file, 'export { x } from "../../documents/api/documents-api";\n')).toHaveLength(1);
  });
});
