import { Lightbulb } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

const TIPS: [string, string][] = [
  [
    "riscos",
    "os riscos escolhidos para o documento (os associados ao procedimento ou o seu texto padrão de riscos), um por linha.",
  ],
  ["beneficios", "os benefícios esperados do procedimento, um por linha."],
  ["cuidados_pos", "os cuidados pós-procedimento que o paciente deve seguir, um por linha."],
  ["valor_procedimento", "o valor do procedimento informado ao criar o documento (ou o seu valor padrão)."],
];

/** Dicas de uso (spec part 2 §2 New template): the four tags and what each brings. */
export function UsageTips() {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Lightbulb className="size-4 text-primary" aria-hidden /> Dicas de uso
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p className="text-muted-foreground">
          Escreva variáveis entre chaves duplas: ao criar um documento elas são trocadas pelos dados do paciente, do
          profissional e do procedimento. Use listas (com bullets ou numeradas) para as tags que trazem vários itens.
        </p>
        <ul className="grid gap-2">
          {TIPS.map(([tag, text]) => (
            <li key={tag} className="grid gap-0.5">
              <code className="w-fit rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-primary">{`{{${tag}}}`}</code>
              <span className="text-muted-foreground">Traz {text}</span>
            </li>
          ))}
        </ul>
        <p className="text-muted-foreground">
          Formatação: selecione um trecho e use Negrito (Ctrl+B) ou Itálico (Ctrl+I); nas seções de parágrafo, linhas
          que começam com “- ” ou “1. ” viram listas. O texto continua simples: nada de HTML é guardado.
        </p>
        <p className="text-muted-foreground">
          Os textos padrão de cada profissional ficam em{" "}
          <span className="font-medium text-foreground">Config. Templates</span>.
        </p>
      </CardContent>
    </Card>
  );
}
