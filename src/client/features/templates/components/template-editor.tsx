import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import type * as React from "react";
import { useLayoutEffect, useRef, useState } from "react";
import { NativeSelect } from "@/components/form/native-select";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import {
  SECTION_TYPE_LABEL,
  SECTION_TYPES,
  type SectionType,
  type TemplateStructure,
} from "@shared/document-model/structure";
import { addSection, insertPlaceholder, moveSection, removeSection, updateSection } from "../lib/sections";
import { toggleList, toggleWrap } from "../lib/formatting-edits";
import { type FormattingCommand, FormattingToolbar } from "./formatting-toolbar";
import { VariableInserter } from "./variable-inserter";

const INTRODUCTION = "introduction";

/**
 * The structured editor shared by create and edit (spec part 2 §2 Template editor): document
 * title, introduction, ordered sections, and a variable inserter that writes `{{name}}` at the
 * caret of the last focused text field.
 */
export function TemplateEditor({
  value,
  onChange,
  disabled,
}: {
  value: TemplateStructure;
  onChange: (next: TemplateStructure) => void;
  disabled?: boolean;
}) {
  const fields = useRef(new Map<string, HTMLTextAreaElement>());
  const [target, setTarget] = useState<string | null>(null);
  const pendingCaret = useRef<{ key: string; caret: number; end?: number } | null>(null);

  // After an insertion has been rendered: focus the field again and put the caret after the tag.
  useLayoutEffect(() => {
    const pending = pendingCaret.current;
    if (!pending) return;
    const element = fields.current.get(pending.key);
    if (element && element.value.length >= pending.caret) {
      pendingCaret.current = null;
      element.focus();
      element.setSelectionRange(pending.caret, pending.end ?? pending.caret);
    }
  });

  const register = (key: string) => (element: HTMLTextAreaElement | null) => {
    if (element) fields.current.set(key, element);
    else fields.current.delete(key);
  };

  function insert(name: string) {
    const key = target && fields.current.has(target) ? target : INTRODUCTION;
    const element = fields.current.get(key);
    const text = key === INTRODUCTION ? value.introduction : (value.sections.find((s) => s.id === key)?.content ?? "");
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? start;
    const result = insertPlaceholder(text, name, start, end);
    pendingCaret.current = { key, caret: result.caret };
    setTarget(key);
    onChange(
      key === INTRODUCTION
        ? { ...value, introduction: result.text }
        : updateSection(value, key, { content: result.text }),
    );
  }

  /** Bold, italic or a list at the selection of a section's content (decision 034). */
  function format(sectionId: string, command: FormattingCommand) {
    const element = fields.current.get(sectionId);
    const text = value.sections.find((s) => s.id === sectionId)?.content ?? "";
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? start;
    const edit =
      command === "bold" || command === "italic"
        ? toggleWrap(text, start, end, command === "bold" ? "**" : "*")
        : toggleList(text, start, end, command === "numbered");
    pendingCaret.current = { key: sectionId, caret: edit.selectionStart, end: edit.selectionEnd };
    setTarget(sectionId);
    onChange(updateSection(value, sectionId, { content: edit.text }));
  }

  function shortcut(sectionId: string, event: React.KeyboardEvent<HTMLTextAreaElement>) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    if (key !== "b" && key !== "i") return;
    event.preventDefault();
    format(sectionId, key === "b" ? "bold" : "italic");
  }

  const targetIndex = target && target !== INTRODUCTION ? value.sections.findIndex((s) => s.id === target) : -1;
  const targetLabel =
    target === INTRODUCTION ? "Introdução" : targetIndex >= 0 ? `conteúdo da seção ${targetIndex + 1}` : null;
  const last = value.sections.length - 1;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start">
      <div className="grid min-w-0 gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Documento</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <FormField
              label="Título do documento"
              htmlFor="estrutura-title"
              hint="Deixe em branco para usar o título do template."
            >
              <Input
                value={value.title}
                onChange={(event) => onChange({ ...value, title: event.target.value })}
                maxLength={300}
                disabled={disabled}
              />
            </FormField>
            <FormField label="Introdução" htmlFor="estrutura-introduction">
              <Textarea
                ref={register(INTRODUCTION)}
                rows={3}
                className="field-sizing-fixed resize-y"
                value={value.introduction}
                onChange={(event) => onChange({ ...value, introduction: event.target.value })}
                onFocus={() => setTarget(INTRODUCTION)}
                disabled={disabled}
              />
            </FormField>
          </CardContent>
        </Card>

        <section className="grid gap-4" aria-label="Seções">
          {value.sections.length === 0 ? (
            <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
              Nenhuma seção ainda. Use “Adicionar Seção” para montar o conteúdo do documento.
            </p>
          ) : null}
          {value.sections.map((section, index) => {
            const n = index + 1;
            const id = `secao-${index}`;
            return (
              <Card
                key={section.id}
                className="gap-4 py-4"
                data-testid="template-section"
                aria-label={`Seção ${n}`}
                role="group"
              >
                <div className="flex flex-wrap items-center justify-between gap-2 px-4 sm:px-6">
                  <p className="text-sm font-semibold">Seção {n}</p>
                  <div className="flex items-center gap-1">
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Mover seção ${n} para cima`}
                      title="Mover para cima"
                      disabled={disabled || index === 0}
                      onClick={() => onChange(moveSection(value, section.id, -1))}
                    >
                      <ArrowUp />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Mover seção ${n} para baixo`}
                      title="Mover para baixo"
                      disabled={disabled || index === last}
                      onClick={() => onChange(moveSection(value, section.id, 1))}
                    >
                      <ArrowDown />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Remover seção ${n}`}
                      title="Remover seção"
                      className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                      disabled={disabled}
                      onClick={() => {
                        if (target === section.id) setTarget(null);
                        onChange(removeSection(value, section.id));
                      }}
                    >
                      <Trash2 />
                    </Button>
                  </div>
                </div>
                <div className="grid gap-4 px-4 sm:grid-cols-[12rem_minmax(0,1fr)] sm:px-6">
                  <FormField label="Tipo" htmlFor={`${id}-type`}>
                    <NativeSelect
                      value={section.type}
                      onChange={(event) =>
                        onChange(updateSection(value, section.id, { type: event.target.value as SectionType }))
                      }
                      disabled={disabled}
                    >
                      {SECTION_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {SECTION_TYPE_LABEL[type]}
                        </option>
                      ))}
                    </NativeSelect>
                  </FormField>
                  <FormField label="Título da seção" htmlFor={`${id}-title`}>
                    <Input
                      value={section.title}
                      onChange={(event) => onChange(updateSection(value, section.id, { title: event.target.value }))}
                      maxLength={300}
                      disabled={disabled}
                    />
                  </FormField>
                  <FormField
                    label="Conteúdo"
                    htmlFor={`${id}-content`}
                    className="sm:col-span-2"
                    hint={
                      section.type === "bullet_list" || section.type === "numbered_list"
                        ? "Um item por linha."
                        : undefined
                    }
                  >
                    {(control) => (
                      <div className="grid gap-1.5">
                        <FormattingToolbar
                          label={`Formatação da seção ${n}`}
                          lists={section.type === "paragraph"}
                          disabled={disabled}
                          onCommand={(command) => format(section.id, command)}
                        />
                        <Textarea
                          {...control}
                          ref={register(section.id)}
                          rows={4}
                          className="field-sizing-fixed resize-y"
                          value={section.content}
                          onChange={(event) =>
                            onChange(updateSection(value, section.id, { content: event.target.value }))
                          }
                          onKeyDown={(event) => shortcut(section.id, event)}
                          onFocus={() => setTarget(section.id)}
                          disabled={disabled}
                        />
                      </div>
                    )}
                  </FormField>
                </div>
              </Card>
            );
          })}
          <Button
            type="button"
            variant="outline"
            className="justify-self-start"
            onClick={() => onChange(addSection(value))}
            disabled={disabled}
          >
            <Plus /> Adicionar Seção
          </Button>
        </section>
      </div>

      <Card className="gap-0 p-4 lg:sticky lg:top-20">
        <VariableInserter onInsert={insert} targetLabel={targetLabel} />
      </Card>
    </div>
  );
}
