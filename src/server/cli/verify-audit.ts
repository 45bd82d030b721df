/**
 * `npm run audit:verify`: checks every clinic's hash-chained audit trail and exits 1 when any
 * chain is broken (for cron and monitoring). Uses DATABASE_URL, or the embedded database.
 */
import path from "node:path";
import { openDatabase } from "../../db/client.js";
import { loadEnv } from "../env.js";
import { verifyAllAuditChains } from "../services/audit/verify-audit-chain.js";

const env = loadEnv();
const database = env.DATABASE_URL
  ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL })
  : await openDatabase({ kind: "pglite", dataDir: path.join(path.resolve(env.DATA_DIR), "pglite") });
try {
  const reports = await verifyAllAuditChains(database.db);
  for (const report of reports) {
    console.log(
      report.intact
        ? `ok      ${report.tenant_id}  ${report.events} eventos`
        : `QUEBRADA ${report.tenant_id}  a partir do evento ${report.first_broken_seq} (de ${report.events})`,
    );
  }
  const broken = reports.filter((r) => !r.intact).length;
  console.log(broken === 0 ? `Trilhas íntegras: ${reports.length}` : `Trilhas quebradas: ${broken} de ${reports.length}`);
  process.exitCode = broken === 0 ? 0 : 1;
} finally {
  await database.close();
}
