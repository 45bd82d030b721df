import { useCallback } from "react";
import { useNavigate } from "react-router";

/**
 * "Cancelar"/"Voltar": back in the app's history when there is a page of ours to return to
 * (react-router numbers its entries in history.state.idx), else to `fallback`.
 */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate(fallback);
  }, [navigate, fallback]);
}
