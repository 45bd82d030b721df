import { type ReactNode, useRef, useState } from "react";
import { Spinner } from "@/components/ui/spinner";
import { ApiError, api } from "@/lib/api";
import type { Endereco } from "@shared/schemas/cep";

type Lookup = { state: "idle" | "loading" | "found" | "failed"; message?: string };

/**
 * Looks a CEP up through our server (ViaCEP, then BrasilAPI) once 8 digits are typed and hands
 * the address to `onFound`. A failure leaves the fields editable and says so in `hint`. Only the
 * answer to the latest CEP typed is used.
 */
export function useCepLookup(onFound: (address: Endereco) => void): {
  onCepChange: (value: string) => void;
  hint: ReactNode;
} {
  const [lookup, setLookup] = useState<Lookup>({ state: "idle" });
  const latest = useRef("");

  async function lookUp(value: string) {
    const digits = value.replace(/\D/g, "");
    latest.current = digits;
    if (digits.length !== 8) {
      setLookup((current) => (current.state === "idle" ? current : { state: "idle" }));
      return;
    }
    setLookup({ state: "loading" });
    try {
      const address = await api<Endereco>(`/api/cep/${digits}`);
      if (latest.current !== digits) return;
      onFound(address);
      setLookup({ state: "found" });
    } catch (error) {
      if (latest.current !== digits) return;
      const message =
        error instanceof ApiError && error.code === "CEP_NOT_FOUND"
          ? "CEP não encontrado. Preencha o endereço manualmente."
          : "Erro ao buscar CEP. Preencha o endereço manualmente.";
      console.warn("CEP lookup failed", error);
      setLookup({ state: "failed", message });
    }
  }

  const hint =
    lookup.state === "loading" ? (
      <span className="inline-flex items-center gap-1">
        <Spinner className="size-3" label="Buscando endereço" /> Buscando endereço…
      </span>
    ) : lookup.state === "failed" ? (
      lookup.message
    ) : undefined;

  return { onCepChange: (value) => void lookUp(value), hint };
}
