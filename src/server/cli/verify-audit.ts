/**
 * `npm run audit:verify`: checks every clinic's hash-chained audit trail and exits 1 when any
 * chain is broken, a clinic has events without a chain head, or a signed anchor no longer matches
 * or a time-stamp token over the trail does not hold (decision 072) (for cron and monitoring). Uses DATABASE_URL, or the embedded database.
 */
import path from "node:path";
import { openDatabase } from "../../db/client.js";
import { loadEnv } from "../env.js";
import { formatDateTimeSeconds } from "../../shared/format/index.js";
import { createSecretBox, loadInstanceKey } from "../lib/secret-box.js";
import { AUDIT_ANCHOR_KEY_PURPOSE } from "../services/audit/audit-anchors.js";
import { verifyAllAuditChains } from "../services/audit/verify-audit-chain.js";

const env = loadEnv();
const database = env.DATABASE_URL
  ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL })
  : await openDatabase({ kind: "pglite", dataDir: path.join(path.resolve(env.DATA_DIR), "pglite") });
try {
  // The anchors' key comes from APP_SECRET / DATA_DIR/secret.key, never from the database.
  const anchorKey = createSecretBox(loadInstanceKey(env)).deriveKey(AUDIT_ANCHOR_KEY_PURPOSE);
  const reports = await verifyAllAuditChains(database.db, anchorKey);
  for (const report of reports) {
    console.log(
      report.intact
        ? `ok      ${report.tenant_id}  ${report.events} eventos, ${report.anchored_seq} ancorados` +
            (report.timestamps.valid > 0
              ? `; carimbos do tempo da trilha: ${report.timestamps.valid} válidos, o último cobre até o evento ${report.timestamps.stamped_seq} (${formatDateTimeSeconds(new Date(report.timestamps.stamped_at!))})`
              : "; nenhum carimbo do tempo da trilha")
        : `QUEBRADA ${report.tenant_id}  ${report.problems.join(" ")}`,
    );
  }
  const broken = reports.filter((r) => !r.intact).length;
  console.log(
    broken === 0 ? `Trilhas íntegras: ${reports.length}` : `Trilhas quebradas: ${broken} de ${reports.length}`,
  );
  process.exitCode = broken === 0 ? 0 : 1;
} finally {
  await database.close();
}
