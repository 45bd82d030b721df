import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratoPartes, files, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { fileTimestamp, safeFileStem } from "../../../pdf/file-name.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { audioSealContext } from "../signing/record-audio.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { EXPORT_TABLES, type ExportTable, exportExclusions } from "./clinic-export-tables.js";
import { CSV_BOM, csvLine } from "./csv.js";
import { saoPauloDateTime } from "./patient-access-log.js";
import { clinicReadme } from "./readme-texts.js";
import { tablePages } from "./table-pages.js";
import { ZIP_MAX_BYTES, ZIP_MAX_ENTRIES, type ZipWriter } from "./zip-writer.js";

export interface ClinicExport {
  tenantId: string;
  clinic: string;
  fileName: string;
  at: Date;
  withFiles: boolean;
}

/** Entries besides the stored files: LEIA-ME, the tables, the sheets, the index, the manifest. */
const FIXED_ENTRIES = EXPORT_TABLES.length + EXPORT_TABLES.filter((t) => t.csv).length + 3;

export interface PrepareClinicExportOptions {
  db: Db;
  actor: Actor;
  /** The stored files go in the ZIP too. */
  withFiles: boolean;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * GET /api/settings/export (owner only, checked by the route): refuses up front what one ZIP
 * cannot hold (fflate writes no ZIP64), then records `clinic.exported` before anything is sent.
 */
export async function prepareClinicExport({
  db,
  actor,
  withFiles,
  audit,
  now = new Date(),
}: PrepareClinicExportOptions): Promise<ClinicExport> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const [clinic] = await tx
      .select({ nome: tenants.nome })
      .from(tenants)
      .where(eq(tenants.id, actor.tenantId))
      .limit(1);
    const [stored] = await tx
      .select({ count: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(size), 0)::text` })
      .from(
        sql`(select distinct on (${files.sha256}) ${files.sha256}, ${files.size} as size from ${files} where ${files.tenant_id} = ${actor.tenantId}) as stored`,
      );
    const count = stored?.count ?? 0;
    const bytes = Number(stored?.bytes ?? 0);
    if (withFiles && (count + FIXED_ENTRIES > ZIP_MAX_ENTRIES || bytes > ZIP_MAX_BYTES * 0.9)) {
      throw new AppError("CLINIC_EXPORT_TOO_LARGE", undefined, { details: { arquivos: count, bytes } });
    }
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "clinic.exported",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: { arquivos: withFiles, arquivos_guardados: count },
      },
    );
    const nome = clinic?.nome ?? "clinica";
    return {
      tenantId: actor.tenantId,
      clinic: nome,
      fileName: `consentir_${safeFileStem(nome).slice(0, 60)}_${fileTimestamp(now)}.zip`,
      at: now,
      withFiles: withFiles,
    };
  });
}

/** A table as one JSON array, written page by page; returns its row count. */
async function writeTable(zip: ZipWriter, db: Db, tenantId: string, spec: ExportTable): Promise<number> {
  const entry = zip.entry(`dados/${spec.name}.json`);
  await entry.write("[");
  let rows = 0;
  for await (const page of tablePages(db, tenantId, spec)) {
    const text = page.map((row) => JSON.stringify(row)).join(",\n");
    await entry.write(`${rows === 0 ? "\n" : ",\n"}${text}`);
    rows += page.length;
  }
  await entry.write("\n]\n");
  await entry.end();
  return rows;
}

/** The table's spreadsheet (read again: ZIP entries are written one after another). */
async function writeSheet(zip: ZipWriter, db: Db, tenantId: string, spec: ExportTable): Promise<void> {
  if (!spec.csv) return;
  const entry = zip.entry(`planilhas/${spec.csv.file}`);
  const sheet = spec.csv;
  await entry.write(CSV_BOM + csvLine(sheet.columns.map(([label]) => label)));
  for await (const page of tablePages(db, tenantId, spec)) {
    await entry.write(page.map((row) => csvLine(sheet.columns.map(([, column]) => row[column]))).join(""));
  }
  await entry.end();
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/wav": "wav",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/svg+xml": "svg",
};
const fileEntryName = (sha256: string, contentType: string) => `arquivos/${sha256}.${EXTENSIONS[contentType] ?? "bin"}`;

/**
 * The recorded agreements (decision 069) are stored sealed with the instance key: the export opens
 * them, so the clinic holds audio it can play without this server. Keyed by the stored SHA-256.
 */
async function audioContexts(db: Db, tenantId: string): Promise<Map<string, string>> {
  const rows = await withTenant(db, tenantId, (tx) =>
    tx
      .select({ sha256: files.sha256, contratoId: contratoPartes.contrato_id })
      .from(contratoPartes)
      .innerJoin(files, and(eq(files.tenant_id, contratoPartes.tenant_id), eq(files.id, contratoPartes.audio_file_id)))
      .where(eq(contratoPartes.tenant_id, tenantId)),
  );
  return new Map(rows.map((r) => [r.sha256, audioSealContext(tenantId, r.contratoId)]));
}

interface WriteStoredFilesOptions {
  zip: ZipWriter;
  db: Db;
  storage: FileStorage;
  secretBox: SecretBox;
  tenantId: string;
}

/** Each stored file once, by its SHA-256 (several rows may name the same bytes); returns those missing from storage. */
async function writeStoredFiles({
  zip,
  db,
  storage,
  secretBox,
  tenantId,
}: WriteStoredFilesOptions): Promise<Set<string>> {
  const sealedAudio = await audioContexts(db, tenantId);
  const missing = new Set<string>();
  let after: string | null = null;
  for (;;) {
    const cursor: string | null = after;
    const page: { sha256: string; content_type: string }[] = await withTenant(db, tenantId, (tx) =>
      tx
        .selectDistinctOn([files.sha256], { sha256: files.sha256, content_type: files.content_type })
        .from(files)
        .where(and(eq(files.tenant_id, tenantId), cursor ? gt(files.sha256, cursor) : undefined))
        .orderBy(asc(files.sha256), asc(files.id))
        .limit(200),
    );
    for (const file of page) {
      const stored = await storage.get(file.sha256);
      const context = sealedAudio.get(file.sha256);
      const bytes = stored && context ? secretBox.open(stored, context) : stored;
      if (bytes)
        await zip.add(fileEntryName(file.sha256, file.content_type), bytes, {
          compress: !/^(application\/pdf|image\/(png|jpeg))$/.test(file.content_type),
        });
      else missing.add(file.sha256);
    }
    if (page.length < 200) return missing;
    after = page[page.length - 1]?.sha256 ?? null;
  }
}

interface WriteFileIndexOptions {
  zip: ZipWriter;
  db: Db;
  tenantId: string;
  withFiles: boolean;
  missing: Set<string>;
}

/** arquivos/indice.json: every files row, the entry holding its bytes (or why there is none). */
async function writeFileIndex({ zip, db, tenantId, withFiles, missing }: WriteFileIndexOptions): Promise<void> {
  const spec = EXPORT_TABLES.find((t) => t.name === "files") as ExportTable;
  const entry = zip.entry("arquivos/indice.json");
  await entry.write("[");
  let first = true;
  for await (const page of tablePages(db, tenantId, spec)) {
    const lines = page.map((row) => {
      const sha256 = String(row.sha256);
      const arquivo = !withFiles ? null : missing.has(sha256) ? null : fileEntryName(sha256, String(row.content_type));
      const observacao = !withFiles
        ? "exportação sem arquivos"
        : missing.has(sha256)
          ? "arquivo ausente no armazenamento do servidor"
          : null;
      return JSON.stringify({
        id: row.id,
        sha256,
        nome: row.nome,
        content_type: row.content_type,
        size: row.size,
        created_at: row.created_at,
        arquivo,
        observacao,
      });
    });
    if (lines.length) await entry.write(`${first ? "\n" : ",\n"}${lines.join(",\n")}`);
    first = false;
  }
  await entry.write("\n]\n");
  await entry.end();
}

export interface WriteClinicExportOptions {
  zip: ZipWriter;
  db: Db;
  storage: FileStorage;
  secretBox: SecretBox;
  data: ClinicExport;
}

/**
 * Writes the clinic's ZIP while it downloads: LEIA-ME.txt, dados/<table>.json for every table
 * (EXPORT_TABLES, secrets left out), planilhas/*.csv, arquivos/<sha256>.<ext> and their index,
 * and manifesto.json last (counts per table, exclusions, size and SHA-256 of every entry).
 */
export async function writeClinicExport({
  zip,
  db,
  storage,
  secretBox,
  data,
}: WriteClinicExportOptions): Promise<void> {
  const exclusions = exportExclusions();
  await zip.add(
    "LEIA-ME.txt",
    clinicReadme({ clinic: data.clinic, at: saoPauloDateTime(data.at), withFiles: data.withFiles, exclusions }),
  );
  const counts: Record<string, number> = {};
  for (const spec of EXPORT_TABLES) counts[spec.name] = await writeTable(zip, db, data.tenantId, spec);
  for (const spec of EXPORT_TABLES) await writeSheet(zip, db, data.tenantId, spec);
  const missing = data.withFiles
    ? await writeStoredFiles({ zip, db, storage, secretBox, tenantId: data.tenantId })
    : new Set<string>();
  await writeFileIndex({ zip, db, tenantId: data.tenantId, withFiles: data.withFiles, missing });
  const manifest = {
    gerado_em: data.at.toISOString(),
    clinica: data.clinic,
    tenant_id: data.tenantId,
    com_arquivos: data.withFiles,
    linhas_por_tabela: counts,
    arquivos_ausentes: [...missing],
    excluido: exclusions,
    entradas: zip.entries,
  };
  await zip.add("manifesto.json", `${JSON.stringify(manifest, null, 2)}\n`);
  zip.finish();
}
