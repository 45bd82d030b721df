/**
 * Setup file of the `integration-postgres` project: points this fork at its own database.
 * `npm run test:integration` runs the project in N forks and names N databases in
 * TEST_DATABASE_URLS (space-separated); vitest numbers its forks 1…N (VITEST_POOL_ID, a number is
 * reused only once its fork has ended), so two files never share a database at the same time.
 * Without TEST_DATABASE_URLS (files run by hand) there is only TEST_DATABASE_URL: one fork only.
 */
const urls = (process.env.TEST_DATABASE_URLS ?? "").split(" ").filter(Boolean);
if (urls.length > 0) {
  const fork = Number(process.env.VITEST_POOL_ID ?? "1");
  const url = urls[fork - 1];
  if (!url)
    throw new Error(
      `fork ${fork} sem banco: TEST_DATABASE_URLS tem ${urls.length} (rode com --maxWorkers=${urls.length} ou menos)`,
    );
  process.env.TEST_DATABASE_URL = url;
} else if (Number(process.env.VITEST_POOL_ID ?? "1") > 1) {
  throw new Error("um só banco (TEST_DATABASE_URL): rode com --maxWorkers=1, ou por npm run test:integration");
}
