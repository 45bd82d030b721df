import { Construction } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** A screen of the spec whose feature has not landed yet: says so plainly, never a dead end. */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <div className="grid gap-6">
      <PageHeader title={title} />
      <EmptyState
        icon={<Construction />}
        title="Esta tela está sendo preparada"
        description="Ela chega em uma das próximas versões do Consentir."
        action={
          <Button asChild variant="outline">
            <Link to="/">Voltar para o Dashboard</Link>
          </Button>
        }
      />
    </div>
  );
}
