import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { missingEntries, platformOf } from "../../scripts/complete-lockfile.mjs";

const root = new URL("../../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8"));

describe("fresh install", () => {
  it("every installed dependency runs on the Node versions package.json promises", () => {
    const promised: string = pkg.engines.node;
    const refused = Object.entries<{ engines?: { node?: string }; os?: string[]; optional?: boolean }>(lock.packages)
      .filter(([path, entry]) => path !== "" && !(entry.optional && entry.os) && entry.engines?.node)
      .filter(([, entry]) => !semver.subset(promised, entry.engines!.node!))
      .map(([path, entry]) => `${path} (${entry.engines!.node})`);
    expect(refused).toEqual([]);
  });

  it("the Node running the tests is one package.json promises", () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it("the lockfile lists other platforms' optional binaries, so `npm ci` accepts it", () => {
    expect(Object.keys(missingEntries(lock))).toEqual([]);
    expect(lock.packages[""].engines).toEqual(pkg.engines);
  });

  it("reads a platform binary's constraints from its name", () => {
    expect(platformOf("@rollup/rollup-linux-arm64-musl")).toEqual({ os: ["linux"], cpu: ["arm64"], libc: ["musl"] });
    expect(platformOf("@tailwindcss/oxide-win32-x64-msvc")).toEqual({ os: ["win32"], cpu: ["x64"] });
    expect(platformOf("@tailwindcss/oxide-wasm32-wasi")).toEqual({ cpu: ["wasm32"] });
    expect(platformOf("@rollup/rollup-linux-arm-gnueabihf")).toEqual({ os: ["linux"], cpu: ["arm"], libc: ["glibc"] });
    expect(platformOf("left-pad")).toBeNull();
  });
});
