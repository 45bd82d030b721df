import type * as React from "react";
import { useId, useState } from "react";
import { Building2 } from "lucide-react";
import { NativeSelect } from "@/components/form/native-select";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { errorMessage } from "@/lib/api";
import { useClinicSpecialties, usePlatformClinics } from "../api/template-defaults-api";

/**
 * The platform administrator's clinic context (spec part 2 §6: saas_admin needs p_clinica_id to
 * list specialties): choose a clinic, see the specialties its team may give templates.
 */
export function ClinicSpecialtiesCard() {
  const selectId = useId();
  const [clinicId, setClinicId] = useState("");
  const clinics = usePlatformClinics(true);
  const specialties = useClinicSpecialties(clinicId);

  let result: React.ReactNode;
  if (clinicId === "") {
    result = <p className="text-sm text-muted-foreground">Escolha uma clínica para ver as especialidades dela.</p>;
  } else if (specialties.isPending) {
    result = <p className="text-sm text-muted-foreground">Carregando especialidades…</p>;
  } else if (specialties.isError) {
    result = (
      <p role="alert" className="text-sm text-destructive">
        Erro ao carregar especialidades. {errorMessage(specialties.error)}
      </p>
    );
  } else {
    result = (
      <div className="grid gap-2">
        {specialties.data.fallback && (
          <p className="text-sm text-muted-foreground">
            Ninguém nesta clínica tem especialidade vinculada: valem todas as especialidades conhecidas.
          </p>
        )}
        <ul aria-label="Especialidades da clínica" className="flex flex-wrap gap-1.5">
          {specialties.data.items.map((name) => (
            <li key={name}>
              <Badge variant="secondary">{name}</Badge>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <Card aria-labelledby="clinic-specialties-title">
      <CardHeader>
        <CardTitle id="clinic-specialties-title" className="flex items-center gap-2">
          <Building2 className="size-4 text-muted-foreground" aria-hidden="true" /> Especialidades por clínica
        </CardTitle>
        <CardDescription>
          Como administrador da plataforma, escolha a clínica cujas especialidades você quer consultar.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <Label htmlFor={selectId}>Clínica</Label>
          <NativeSelect
            id={selectId}
            value={clinicId}
            onChange={(event) => setClinicId(event.target.value)}
            disabled={!clinics.data}
          >
            <option value="">{clinics.isError ? "Erro ao carregar clínicas" : "Selecione a clínica"}</option>
            {clinics.data?.items.map((clinic) => (
              <option key={clinic.id} value={clinic.id}>
                {clinic.nome}
              </option>
            ))}
          </NativeSelect>
        </div>
        {result}
      </CardContent>
    </Card>
  );
}
