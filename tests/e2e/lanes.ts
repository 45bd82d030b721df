/**
 * Lanes of the browser suite (E2E_LANES, default 2): one server each, and `npm run test:e2e` runs
 * as many vitest forks (--maxWorkers=2); a fork uses server (VITEST_POOL_ID - 1) mod lanes. Alone, one
 * lane leaves about 40 % of a 2-core machine idle (the browser and the server wait on each other),
 * so two lanes side by side finish the suite sooner without sharing any state.
 */
export function e2eLanes(env: NodeJS.ProcessEnv = process.env): number {
  return Math.max(1, Math.floor(Number(env.E2E_LANES ?? 2)) || 1);
}
