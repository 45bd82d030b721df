import type { DiffPart } from "@shared/document-model/word-diff";
import type { ChangeStatus, FieldDiff, SectionDiff, StructureDiff } from "@shared/document-model/version-diff";
import { SECTION_TYPE_LABEL } from "@shared/document-model/structure";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

const STATUS_LABEL: Record<ChangeStatus, string> = {
  added: "Adicionada",
  removed: "Removida",
  changed: "Alterada",
  unchanged: "Sem alterações",
};

const STATUS_STYLE: Record<ChangeStatus, string> = {
  added: "border-emerald-300 bg-emerald-50 text-emerald-900",
  removed: "border-red-300 bg-red-50 text-red-900",
  changed: "border-amber-300 bg-amber-50 text-amber-900",
  unchanged: "",
};

/** Word diff as text: removed words struck through in red, added ones underlined in green. */
export function DiffText({ parts }: { parts: readonly DiffPart[] }) {
  if (parts.length === 0) return <span className="text-muted-foreground italic">(vazio)</span>;
  return (
    <>
      {parts.map((part, index) =>
        part.kind === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === "removed" ? (
          <del key={index} className="rounded-sm bg-red-100 text-red-900 decoration-red-700">
            <span className="sr-only">[removido: </span>
            {part.text}
            <span className="sr-only">]</span>
          </del>
        ) : (
          <ins key={index} className="rounded-sm bg-emerald-100 text-emerald-900 decoration-emerald-700">
            <span className="sr-only">[adicionado: </span>
            {part.text}
            <span className="sr-only">]</span>
          </ins>
        ),
      )}
    </>
  );
}

function FieldBlock({ label, diff }: { label: string; diff: FieldDiff }) {
  return (
    <div className="grid gap-1">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <p className="font-mono text-[0.8rem] leading-relaxed break-words whitespace-pre-wrap">
        <DiffText parts={diff.parts} />
      </p>
    </div>
  );
}

function sectionName(section: SectionDiff): string {
  const where = section.after ?? section.before!;
  const title = where.title.trim() || SECTION_TYPE_LABEL[where.type];
  return `Seção ${where.index}: ${title}`;
}

function SectionChange({ section }: { section: SectionDiff }) {
  const type =
    section.typeChanged && section.before && section.after
      ? `${SECTION_TYPE_LABEL[section.before.type]} → ${SECTION_TYPE_LABEL[section.after.type]}`
      : SECTION_TYPE_LABEL[(section.after ?? section.before)!.type];
  return (
    <li
      className={cn("grid gap-2 rounded-lg border p-3", STATUS_STYLE[section.status])}
      data-testid="section-diff"
      data-status={section.status}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold break-words">{sectionName(section)}</h4>
        <Badge variant="outline" className="bg-background">
          {STATUS_LABEL[section.status]}
        </Badge>
      </div>
      <p className={cn("text-xs", section.typeChanged ? "font-medium" : "text-muted-foreground")}>Tipo: {type}</p>
      {section.title.status === "changed" ? <FieldBlock label="Título" diff={section.title} /> : null}
      <FieldBlock label="Conteúdo" diff={section.content} />
    </li>
  );
}

function summary(diff: StructureDiff): string {
  const parts = [
    diff.counts.changed
      ? `${diff.counts.changed} ${diff.counts.changed === 1 ? "seção alterada" : "seções alteradas"}`
      : "",
    diff.counts.added ? `${diff.counts.added} ${diff.counts.added === 1 ? "adicionada" : "adicionadas"}` : "",
    diff.counts.removed ? `${diff.counts.removed} ${diff.counts.removed === 1 ? "removida" : "removidas"}` : "",
  ].filter(Boolean);
  const header = [
    diff.title.status === "changed" ? "título" : "",
    diff.introduction.status === "changed" ? "introdução" : "",
  ].filter(Boolean);
  if (parts.length === 0 && header.length === 0) return "As duas versões têm o mesmo conteúdo.";
  return [header.length ? `Alterado: ${header.join(" e ")}` : "", parts.join(", ")].filter(Boolean).join(" · ");
}

/** The readable comparison of two versions: document fields, then each changed section. */
export function VersionDiffView({ diff }: { diff: StructureDiff }) {
  const changed = diff.sections.filter((s) => s.status !== "unchanged");
  const unchanged = diff.sections.length - changed.length;
  return (
    <div className="grid gap-3" data-testid="version-diff">
      <p className="text-sm font-medium" role="status">
        {summary(diff)}
      </p>
      {diff.title.status === "changed" ? <FieldBlock label="Título do documento" diff={diff.title} /> : null}
      {diff.introduction.status === "changed" ? <FieldBlock label="Introdução" diff={diff.introduction} /> : null}
      {changed.length > 0 ? (
        <ol className="grid gap-2" aria-label="Seções com diferenças">
          {changed.map((section) => (
            <SectionChange key={`${section.status}-${section.id}`} section={section} />
          ))}
        </ol>
      ) : null}
      {unchanged > 0 ? (
        <p className="text-xs text-muted-foreground">
          {unchanged === 1 ? "1 seção sem alterações." : `${unchanged} seções sem alterações.`}
        </p>
      ) : null}
    </div>
  );
}
