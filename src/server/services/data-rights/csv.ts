/**
 * CSV as spreadsheets in Brazil open it: UTF-8 with a byte-order mark, ';' between fields (the
 * comma is the decimal separator there), CRLF line ends, fields quoted when they need it (RFC
 * 4180). A field that starts like a formula (=, +, -, @) gets a leading apostrophe, so a name
 * typed as "=HYPERLINK(…)" is shown, not run, by the spreadsheet.
 */
export const CSV_BOM = "\uFEFF";

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text =
    value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === "string") text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(";")}\r\n`;
}

/** A whole small table (header + rows). Large tables are written line by line with csvLine. */
export function toCsv(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return CSV_BOM + csvLine(headers) + rows.map(csvLine).join("");
}
