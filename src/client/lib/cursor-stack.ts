/**
 * Keyset paging kept by the client: the stack holds the cursors used to reach the current page
 * (empty on the first page). "Próxima" pushes the answer's next_cursor, "Anterior" pops.
 */
export interface CursorStack {
  /** Which search/filters these cursors belong to; a change starts over on page 1. */
  key: string;
  cursors: string[];
}

export function currentCursor(stack: CursorStack): string | undefined {
  return stack.cursors[stack.cursors.length - 1];
}

export function nextPage(stack: CursorStack, next_cursor: string | null): CursorStack {
  return next_cursor ? { key: stack.key, cursors: [...stack.cursors, next_cursor] } : stack;
}

export function previousPage(stack: CursorStack): CursorStack {
  return { key: stack.key, cursors: stack.cursors.slice(0, -1) };
}

/** "Mostrando X de Y": X counts every patient up to the end of the current page. */
export function shownSoFar(stack: CursorStack, itemsOnPage: number, pageSize: number): number {
  return stack.cursors.length * pageSize + itemsOnPage;
}
