import { type RefObject, useEffect, useEffectEvent, useState } from "react";
import { useNavigation, useSearchParams } from "react-router";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { type CursorStack, currentCursor } from "@/lib/cursor-stack";

export interface UrlListCodec<F> {
  read(params: URLSearchParams): { q: string; filters: F };
  write(q: string, filters: F): URLSearchParams;
}

/**
 * A server-side list's state kept in the address bar (so Back returns to the same list): the
 * search box (debounced into `?q=`), the filters, and the keyset page stack, which starts over
 * whenever the search or a filter changes. Shared by the patients and documents lists.
 */
export function useUrlListState<F>(codec: UrlListCodec<F>, listTop: RefObject<HTMLElement | null>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const { q, filters } = codec.read(searchParams);
  const [term, setTerm] = useState(q);
  const debouncedTerm = useDebouncedValue(term.trim(), 300);
  const navigating = useNavigation().state !== "idle";

  // The typed term reaches the address bar (and the query) once typing pauses — unless the
  // person has meanwhile clicked elsewhere: while that navigation is under way (a screen's code
  // still downloading) this list is still mounted, and writing `?q=` would replace it.
  // Only a new debounced term writes; an outside change of `q` is handled below.
  const writeTerm = useEffectEvent((typed: string) => {
    if (typed === q || navigating) return;
    setSearchParams((current) => codec.write(typed, codec.read(current).filters), { replace: true });
  });
  useEffect(() => writeTerm(debouncedTerm), [debouncedTerm]);

  // Back/forward changed `q`: show it in the box.
  const showOutsideTerm = useEffectEvent((fromAddress: string) => {
    if (fromAddress !== debouncedTerm) setTerm(fromAddress);
  });
  useEffect(() => showOutsideTerm(q), [q]);

  const setFilters = (next: F) => setSearchParams(codec.write(q, next), { replace: true });

  const key = codec.write(q, filters).toString();
  const [stack, setStack] = useState<CursorStack>({ key, cursors: [] });
  const pages = stack.key === key ? stack : { key, cursors: [] };

  /** Moves to another page and brings the list's top into view when it scrolled away. */
  function goTo(next: CursorStack) {
    setStack(next);
    const top = listTop.current;
    if (top && top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: "start" });
  }

  return { q, filters, term, setTerm, setFilters, pages, cursor: currentCursor(pages), goTo };
}
