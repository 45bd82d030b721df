import { UserX } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/** An unknown patient id, or one of another clinic: the same answer for both. */
export function PatientNotFound() {
  return (
    <EmptyState
      icon={<UserX />}
      title="Paciente não encontrado"
      description="O paciente que você procura não existe ou foi excluído."
      action={
        <Button asChild>
          <Link to="/patients">Voltar para Pacientes</Link>
        </Button>
      }
    />
  );
}
