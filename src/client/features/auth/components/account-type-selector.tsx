import { Building2, Stethoscope } from "lucide-react";

export type AccountType = "estabelecimento" | "profissional_independente";

const OPTIONS: { type: AccountType; title: string; description: string; icon: typeof Building2 }[] = [
  {
    type: "estabelecimento",
    title: "Estabelecimento de saúde",
    description: "Clínica, consultório com CNPJ, policlínica ou unidade hospitalar, com equipe.",
    icon: Building2,
  },
  {
    type: "profissional_independente",
    title: "Profissional independente",
    description: "Médico, dentista, enfermeiro, fisioterapeuta ou biomédico que atende por conta própria.",
    icon: Stethoscope,
  },
];

export function AccountTypeSelector({ onChoose }: { onChoose: (type: AccountType) => void }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">Como você vai usar o Consentir?</p>
      {OPTIONS.map(({ type, title, description, icon: Icon }) => (
        <button
          key={type}
          type="button"
          onClick={() => onChoose(type)}
          className="flex items-start gap-3 rounded-lg border bg-card p-4 text-left transition hover:border-primary hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <Icon className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden />
          <span className="grid gap-1">
            <span className="font-medium">{title}</span>
            <span className="text-sm text-muted-foreground">{description}</span>
          </span>
        </button>
      ))}
    </div>
  );
}
