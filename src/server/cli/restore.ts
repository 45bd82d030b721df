/**
 * `npm run restore -- FILE [--force]`: restores a backup (decision 027) — a file, or
 * s3://BUCKET/KEY in the configured bucket (decision 030) — into an empty DATA_DIR (the embedded
 * database) or the PostgreSQL database DATABASE_URL names, stored files into DATA_DIR/files or the
 * bucket of S3_BUCKET; refuses a bad file (truncated, altered, another key, newer version) and a
 * non-empty target without --force before touching anything. Then prints what `npm run
 * audit:verify` checks and each sealed PDF's SHA-256 against its record; exit 1 if any fails.
 */
import path from "node:path";
import { BackupError } from "../backup/backup-error.js";
import { restoreBackup } from "../backup/restore-backup.js";
import { EnvError, loadEnv, resolveDataDir } from "../env.js";
import { s3SettingsFromEnv } from "../storage/s3-settings.js";
import { createFileStorage } from "../storage/storage-from-env.js";

const args = process.argv.slice(2).filter((arg) => arg !== "--");
const force = args.includes("--force");
const files = args.filter((arg) => arg !== "--force");
const file = files[0];
if (files.length !== 1 || !file || file.startsWith("-")) {
  console.error(
    "Uso: npm run restore -- ARQUIVO|s3://BUCKET/CHAVE [--force]   (restaura num DATA_DIR vazio, ou no banco de DATABASE_URL)",
  );
  process.exit(2);
}

try {
  const env = loadEnv();
  const dataDir = resolveDataDir(env);
  const started = performance.now();
  const storage = await createFileStorage(env);
  const report = await restoreBackup({
    file: file.startsWith("s3://") ? file : path.resolve(file),
    env,
    force,
    target: env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL, dataDir } : { kind: "pglite", dataDir },
    progress: (message) => console.error(message),
    storage,
    s3: s3SettingsFromEnv(env),
  }).finally(() => storage.close?.());
  const { preamble, manifest, checks } = report;
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  console.log(
    `Backup de ${preamble.created_at} (${preamble.source === "pglite" ? "banco embutido" : "PostgreSQL"}, migração ${preamble.schema.last_tag ?? preamble.schema.migrations}) ` +
      `verificado: ${manifest.tables.length} tabelas, ${rows} linhas, ${manifest.files.count} arquivos.`,
  );
  console.log(
    env.DATABASE_URL
      ? `Restaurado no PostgreSQL de DATABASE_URL; arquivos em ${storage.location}.`
      : `Restaurado no banco embutido em ${path.join(dataDir, "pglite")}; arquivos em ${storage.location}.`,
  );
  if (report.movedAside) console.log(`O banco que estava no destino foi movido para ${report.movedAside}.`);
  if (report.keyWarning) console.log(`AVISO: ${report.keyWarning}`);
  console.log("Conferência depois da restauração:");
  if (checks.audit === null) {
    console.log(
      "  trilha de auditoria (audit:verify): NÃO CONFERIDA — falta a chave da instalação (APP_SECRET ou secret.key).",
    );
  } else {
    const broken = checks.audit.filter((r) => !r.intact);
    for (const report of broken) console.log(`  QUEBRADA ${report.tenant_id}  ${report.problems.join(" ")}`);
    console.log(
      broken.length === 0
        ? `  trilha de auditoria (audit:verify): ${checks.audit.length} clínicas, todas íntegras.`
        : `  trilha de auditoria (audit:verify): ${broken.length} de ${checks.audit.length} clínicas com a trilha quebrada.`,
    );
  }
  for (const failure of checks.pdfs.failed)
    console.log(`  PDF selado do documento ${failure.contrato_id}: ${failure.problem}`);
  console.log(
    checks.pdfs.failed.length === 0
      ? `  PDFs selados: ${checks.pdfs.checked} conferem com o SHA-256 registrado.`
      : `  PDFs selados: ${checks.pdfs.failed.length} de ${checks.pdfs.checked} não conferem.`,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    report.ok
      ? `Restauração concluída em ${seconds} s: tudo confere.`
      : `Restauração concluída em ${seconds} s, mas a conferência falhou (veja acima).`,
  );
  process.exitCode = report.ok ? 0 : 1;
} catch (error) {
  if (error instanceof BackupError || error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
}
