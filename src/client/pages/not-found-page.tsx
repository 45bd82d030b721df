import { Link } from "react-router";
import { Button } from "@/components/ui/button";

export function NotFoundPage() {
  return (
    <div className="grid min-h-[60svh] place-items-center p-6 text-center">
      <div className="grid gap-3">
        <p className="text-5xl font-bold text-primary">404</p>
        <h1 className="text-xl font-semibold">Página não encontrada</h1>
        <p className="text-muted-foreground">O endereço que você abriu não existe ou foi movido.</p>
        <Button asChild className="justify-self-center">
          <Link to="/">Voltar para o início</Link>
        </Button>
      </div>
    </div>
  );
}
