/**
 * Faster paths through pdfmake 0.3.11 and the PDFKit 0.19.1 / fontkit 2.0.4 it bundles (decision
 * 025). Each one replaces a hot internal function by one that computes the same result with less
 * work; none changes what a page shows or the text a reader extracts. They are installed once per
 * process by pdfEngine() (fonts.ts) and can be switched off at run time (setFastPaths(false)), so
 * the tests draw the same documents both ways and compare words, pixels and fonts.
 *
 * These are patches of library internals: package.json pins pdfmake to 0.3.11 and
 * fast-paths.test.ts fails loudly when a patched function is missing or its source changed, so
 * an upgrade cannot silently fall back or, worse, half-apply.
 */
import { deflateSync } from "node:zlib";

/** What the patches need from the libraries (resolved by fonts.ts, which owns the loading). */
export interface PdfLibraries {
  /** pdfmake/js/StyleContextStack.js default export. */
  StyleContextStack: StyleContextStackClass;
  /** pdfmake/js/TextInlines.js default export. */
  TextInlines: { prototype: TextInlinesInstance };
  /** PDFKit's PDFDocument (the copy pdfmake loads). */
  PDFKitDocument: new (options?: Record<string, unknown>) => { ref(data?: object): object };
}

type StyleName = string;
type StyleOverride = Record<string, unknown>;
type StackEntry = StyleName | StyleOverride;

interface StyleContextStackInstance {
  styleDictionary: Record<string, (Record<string, unknown> & { extends?: StyleName | StyleName[] }) | undefined>;
  defaultStyle: Record<string, unknown> | undefined;
  styleOverrides: StackEntry[];
  getProperty(property: string): unknown;
}

interface StyleContextStackClass {
  prototype: StyleContextStackInstance;
  getStyleProperty(item: unknown, stack: StyleContextStackInstance | undefined, property: string, defaultValue: unknown): unknown;
}

interface InlineFont {
  lineHeight(fontSize: number): number;
}

interface MeasuredInline extends Record<string, unknown> {
  text: string;
  font: InlineFont;
  fontSize: number;
  leadingCut?: number;
  leadingIndent?: number;
  trailingCut?: number;
}

interface TextInlinesInstance {
  pdfDocument: { provideFont(family: unknown, bold: unknown, italics: unknown): InlineFont };
  measure(array: MeasuredInline[], stack: StyleContextStackInstance | undefined): MeasuredInline[];
  widthOfText(text: string, inline: MeasuredInline): number;
}

interface PdfReference {
  compress: boolean;
  buffer: Uint8Array[] | Buffer;
  finalize(): void;
}

/**
 * zlib level for the streams PDFKit compresses itself (page content, fonts, embedded files, the
 * ToUnicode maps): 1 instead of zlib's default 6. Text content compresses nearly as well and
 * several times faster; the PDF grows by a few percent.
 */
export const STREAM_DEFLATE_LEVEL = 1;

let enabled = true;
let installed = false;

/** Switches the fast paths on or off (tests compare both; on by default). */
export function setFastPaths(on: boolean): void {
  enabled = on;
}

export function fastPathsEnabled(): boolean {
  return enabled;
}

/** The original functions, kept for setFastPaths(false) and for the shape tests. */
export const originals: {
  getStyleProperty?: StyleContextStackClass["getStyleProperty"];
  getProperty?: StyleContextStackInstance["getProperty"];
  measure?: TextInlinesInstance["measure"];
  finalize?: PdfReference["finalize"];
} = {};

const isValue = (value: unknown) => value !== undefined && value !== null;
const isString = (value: unknown): value is string => typeof value === "string" || value instanceof String;

/**
 * pdfmake's getStylePropertyFromStyle without its per-call closure and Set: a named style's own
 * value, else (only when it `extends` others) the original walk with cycle detection.
 */
function fromNamedStyle(stack: StyleContextStackInstance, name: StyleName, property: string, visited?: Set<StyleName>): unknown {
  if (visited) {
    if (visited.has(name)) return undefined;
    visited.add(name);
  }
  const style = stack.styleDictionary[name as string];
  if (!style) return undefined;
  const own = style[property];
  if (isValue(own)) return own;
  if (style.extends) {
    const seen = visited ?? new Set<StyleName>([name]);
    const parents = Array.isArray(style.extends) ? style.extends : [style.extends];
    for (let i = parents.length - 1; i >= 0; i--) {
      const value = fromNamedStyle(stack, parents[i]!, property, seen);
      if (isValue(value)) return value;
    }
  }
  return undefined;
}

/** An entry of the stack: a named style, or an override object (pdfmake's getProperty loop body). */
function fromEntry(stack: StyleContextStackInstance, entry: StackEntry, property: string): unknown {
  return isString(entry) ? fromNamedStyle(stack, entry, property) : (entry as StyleOverride)[property];
}

/** StyleContextStack.prototype.getProperty, the same walk from the top of the stack down. */
function getPropertyFast(this: StyleContextStackInstance, property: string): unknown {
  const overrides = this.styleOverrides;
  if (overrides) {
    for (let i = overrides.length - 1; i >= 0; i--) {
      const value = fromEntry(this, overrides[i]!, property);
      if (isValue(value)) return value;
    }
  }
  return this.defaultStyle && this.defaultStyle[property];
}

/**
 * StyleContextStack.getStyleProperty: the original pushes the item (its style names, then the
 * item itself) onto the stack, walks it from the top and pops them again. Walking the item's
 * entries first and then the stack gives the same answer without touching the stack.
 */
function getStylePropertyFast(item: unknown, stack: StyleContextStackInstance | undefined, property: string, defaultValue: unknown): unknown {
  const node = item as Record<string, unknown>;
  const own = node[property];
  if (isValue(own)) return own;
  if (!stack) return defaultValue;
  let value: unknown;
  // autopush pushes nothing for a string or a section node.
  if (!isString(item) && typeof node.section === "undefined") {
    // The item itself is the top entry: its own value was checked above.
    const style = node.style as StackEntry | StackEntry[] | undefined;
    if (style) {
      if (Array.isArray(style)) {
        for (let i = style.length - 1; i >= 0 && !isValue(value); i--) value = fromEntry(stack, style[i]!, property);
      } else {
        value = fromEntry(stack, style, property);
      }
    }
  }
  if (!isValue(value)) value = getPropertyFast.call(stack, property);
  return isValue(value) ? value : defaultValue;
}

const LEADING = /^(\s)+/g;
const TRAILING = /(\s)+$/g;

/**
 * TextInlines.prototype.measure, line for line, with one change: the ~22 style properties of
 * each word are looked up in the word itself and its own styles, and only then in the style
 * stack, whose answer is kept for the whole call (the stack does not change while the words of
 * one text node are measured; the original walks it again for every word and property).
 */
function measureFast(this: TextInlinesInstance, array: MeasuredInline[], stack: StyleContextStackInstance | undefined): MeasuredInline[] {
  const fromStack = new Map<string, unknown>();
  const get = (item: MeasuredInline, property: string, defaultValue: unknown): unknown => {
    const own = item[property];
    if (isValue(own)) return own;
    if (!stack) return defaultValue;
    let value: unknown;
    const style = item.style as StackEntry | StackEntry[] | undefined;
    if (style) {
      if (Array.isArray(style)) {
        for (let i = style.length - 1; i >= 0 && !isValue(value); i--) value = fromEntry(stack, style[i]!, property);
      } else {
        value = fromEntry(stack, style, property);
      }
    }
    if (!isValue(value)) {
      if (fromStack.has(property)) value = fromStack.get(property);
      else {
        value = getPropertyFast.call(stack, property);
        fromStack.set(property, value);
      }
    }
    return isValue(value) ? value : defaultValue;
  };
  if (array.length) {
    const leadingIndent = get(array[0]!, "leadingIndent", 0) as number;
    if (leadingIndent) {
      array[0]!.leadingCut = -leadingIndent;
      array[0]!.leadingIndent = leadingIndent;
    }
  }
  for (const item of array) {
    const font = get(item, "font", "Roboto");
    const bold = get(item, "bold", false);
    const italics = get(item, "italics", false);
    item.font = this.pdfDocument.provideFont(font, bold, italics);
    item.alignment = get(item, "alignment", "left");
    item.fontSize = get(item, "fontSize", 12) as number;
    item.fontFeatures = get(item, "fontFeatures", null);
    item.characterSpacing = get(item, "characterSpacing", 0);
    item.color = get(item, "color", "black");
    item.decoration = get(item, "decoration", null);
    item.decorationColor = get(item, "decorationColor", null);
    item.decorationStyle = get(item, "decorationStyle", null);
    item.decorationThickness = get(item, "decorationThickness", null);
    item.background = get(item, "background", null);
    item.link = get(item, "link", null);
    item.linkToPage = get(item, "linkToPage", null);
    item.linkToDestination = get(item, "linkToDestination", null);
    item.noWrap = get(item, "noWrap", null);
    item.opacity = get(item, "opacity", 1);
    item.sup = get(item, "sup", false);
    item.sub = get(item, "sub", false);
    if (item.sup || item.sub) {
      item.fontSize *= 0.58;
    }
    const lineHeight = get(item, "lineHeight", 1) as number;
    item.width = this.widthOfText(item.text, item);
    item.height = item.font.lineHeight(item.fontSize) * lineHeight;
    if (!item.leadingCut) {
      item.leadingCut = 0;
    }
    if (!get(item, "preserveLeadingSpaces", false)) {
      const leadingSpaces = item.text.match(LEADING);
      if (leadingSpaces) {
        item.leadingCut += this.widthOfText(leadingSpaces[0], item);
      }
    }
    item.trailingCut = 0;
    if (!get(item, "preserveTrailingSpaces", false)) {
      const trailingSpaces = item.text.match(TRAILING);
      if (trailingSpaces) {
        item.trailingCut = this.widthOfText(trailingSpaces[0], item);
      }
    }
  }
  return array;
}

/**
 * PDFReference.finalize deflates a stream with zlib's default level; compress it first at
 * STREAM_DEFLATE_LEVEL and let the original write it as it is (its /Filter is already set).
 */
function finalizeFast(this: PdfReference): void {
  if (this.compress && Array.isArray(this.buffer) && this.buffer.length > 0) {
    this.buffer = [deflateSync(this.buffer.length === 1 ? this.buffer[0]! : Buffer.concat(this.buffer), { level: STREAM_DEFLATE_LEVEL })];
    this.compress = false;
  }
  originals.finalize!.call(this);
}

/** Installs every fast path (once per process). */
export function installFastPaths(libraries: PdfLibraries): void {
  if (installed) return;
  installed = true;
  const { StyleContextStack } = libraries;

  originals.getStyleProperty = StyleContextStack.getStyleProperty;
  originals.getProperty = StyleContextStack.prototype.getProperty;
  StyleContextStack.getStyleProperty = function (item, stack, property, defaultValue) {
    return enabled ? getStylePropertyFast(item, stack, property, defaultValue) : originals.getStyleProperty!.call(this, item, stack, property, defaultValue);
  };
  StyleContextStack.prototype.getProperty = function (property) {
    return enabled ? getPropertyFast.call(this, property) : originals.getProperty!.call(this, property);
  };

  const textInlines = libraries.TextInlines.prototype;
  originals.measure = textInlines.measure;
  textInlines.measure = function (array, stack) {
    return enabled ? measureFast.call(this, array, stack) : originals.measure!.call(this, array, stack);
  };

  const referenceClass = Object.getPrototypeOf(new libraries.PDFKitDocument({ autoFirstPage: false }).ref()) as PdfReference;
  originals.finalize = referenceClass.finalize;
  referenceClass.finalize = function () {
    return enabled ? finalizeFast.call(this) : originals.finalize!.call(this);
  };
}
