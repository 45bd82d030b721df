/**
 * `npm run backup -- DIR`: writes one encrypted backup file (database snapshot + every stored file,
 * decision 027) into DIR — or into the bucket with `s3://BUCKET[/PREFIX/]`, or with no argument
 * where the daily backup goes (decision 030) — and prints its path (or s3:// address) as the last
 * line. Works while the app runs. Uses
 * DATABASE_URL, or the embedded database under DATA_DIR; key: BACKUP_KEY, else APP_SECRET /
 * DATA_DIR/secret.key (never written into the backup).
 */
import { BackupError } from "../backup/backup-error.js";
import { backupFromCli } from "../backup/backup-from-cli.js";
import { EnvError, loadEnv } from "../env.js";

const args = process.argv.slice(2).filter((arg) => arg !== "--");
const target = args[0];
if (args.length > 1 || target === "" || target?.startsWith("-")) {
  console.error(
    "Uso: npm run backup -- PASTA   (escreve um arquivo de backup em PASTA e imprime o caminho dele)\n" +
      "     npm run backup -- s3://BUCKET[/PREFIXO/]   (no bucket de S3_BUCKET; prefixo padrão backups/)\n" +
      "     npm run backup   (no destino do backup diário: BACKUP_S3 ou BACKUP_DIR)",
  );
  process.exit(2);
}

try {
  const env = loadEnv();
  const started = performance.now();
  const written = await backupFromCli(env, target, (message) => console.error(message));
  const rows = written.manifest.tables.reduce((n, t) => n + t.rows, 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const sha256 of written.manifest.files.missing) {
    console.error(
      `AVISO: o arquivo ${sha256} consta no banco mas não está no armazenamento de arquivos; o backup segue sem ele.`,
    );
  }
  console.log(
    `Backup concluído em ${seconds} s: ${written.manifest.tables.length} tabelas, ${rows} linhas, ${written.manifest.files.count} arquivos, ` +
      `${(written.bytes / 1024 / 1024).toFixed(1)} MB (cifrado; ${written.via === "running-app" ? "cópia tirada pelo app em execução" : written.via}).`,
  );
  console.log(written.path);
} catch (error) {
  if (error instanceof BackupError || error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
}
