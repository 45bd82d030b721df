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
import { encodeSubsetFast, type TtfSubsetLike } from "./fast-subset.js";

/** What the patches need from the libraries (resolved by fonts.ts, which owns the loading). */
export interface PdfLibraries {
  /** pdfmake/js/StyleContextStack.js default export. */
  StyleContextStack: StyleContextStackClass;
  /** pdfmake/js/TextInlines.js default export. */
  TextInlines: { prototype: TextInlinesInstance };
  /** pdfmake/js/Renderer.js default export. */
  Renderer: { prototype: RendererInstance };
  /** pdfmake/js/TextDecorator.js default export. */
  TextDecorator: new (document: RenderDocument) => {
    drawBackground(line: RenderLine, x: number, y: number): void;
    drawDecorations(line: RenderLine, x: number, y: number): void;
  };
  /** fontkit's TrueType subset prototype (of the copy PDFKit loads). */
  TTFSubset: TtfSubset;
  /** PDFKit's PDFDocument (the copy pdfmake loads). */
  PDFKitDocument: (new (options?: Record<string, unknown>) => { ref(data?: object): object }) & { prototype: object };
  /** PDFKit's EmbeddedFont prototype (encode and layout are re-done in encodeWord). */
  EmbeddedFont: object;
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
  getStyleProperty(
    item: unknown,
    stack: StyleContextStackInstance | undefined,
    property: string,
    defaultValue: unknown,
  ): unknown;
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

interface EmbeddedFont {
  id: string;
  ascender: number;
  scale: number;
  subset: { includeGlyph(id: number): number };
  widths: number[];
  unicode: unknown[];
  ref(): unknown;
  layoutCached(text: string): {
    glyphs: Array<{ id: number; advanceWidth: number; codePoints: number[] }>;
    positions: GlyphPosition[];
  };
  layoutCache?: object;
  layout(text: string, features: unknown, onlyWidth: boolean): { advanceWidth: number };
  /** Subset glyph id → its 4-digit hex code (our field, per document font). */
  consentirHex?: string[];
  /** Word → its glyph-array operators, for words drawn without glyph offsets (our field, per document font). */
  consentirTj?: Map<string, string>;
  /** What is kept next to the shared word cache this font uses (our field, found once per document font). */
  consentirShared?: SharedWordData;
}

interface GlyphPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth: number;
}

interface RenderInline extends Record<string, unknown> {
  text: string;
  x: number;
  font: EmbeddedFont;
  fontSize: number;
  color?: unknown;
  opacity?: unknown;
}

interface RenderLine {
  inlines: RenderInline[];
  id?: unknown;
  _outline?: unknown;
  _pageNodeRef?: unknown;
  getHeight(): number;
  getAscenderHeight(): number;
}

interface RenderDocument {
  page: { height: number; fonts: Record<string, unknown> };
  x: number;
  y: number;
  _font: EmbeddedFont;
  opacity(value: number): unknown;
  fill(color: unknown): unknown;
  fontSize(size: number): unknown;
  save(): unknown;
  restore(): unknown;
  transform(m11: number, m12: number, m21: number, m22: number, dx: number, dy: number): unknown;
  addContent(data: string): unknown;
  resolveColor(color: unknown, defaultColor: string): unknown;
  widthOfString(text: string): number;
}

interface RendererInstance {
  pdfDocument: RenderDocument;
  renderLine(line: RenderLine, x: number, y: number): void;
}

interface FontkitGlyph {
  advanceWidth: number;
  _decode(): { numberOfContours: number; components?: Array<{ glyphID: number; pos: number }> } | null;
  _getMetrics(): { leftBearing: number };
}

interface FontkitFont {
  _variationProcessor?: unknown;
  loca: { offsets: number[] };
  getGlyph(id: number): FontkitGlyph;
  _getTableStream(tag: string): { pos: number; readBuffer(length: number): Uint8Array };
}

interface TtfSubset {
  font: FontkitFont;
  glyf: Uint8Array[];
  loca: { offsets: number[] };
  hmtx: { metrics: Array<{ advance: number; bearing: number }> };
  offset: number;
  includeGlyph(id: number): number;
  _addGlyph(gid: number): number;
  encode(): Uint8Array;
}

/** What _addGlyph reads of one glyph of a font (the same every document). */
interface GlyphEntry {
  bytes: Uint8Array;
  components: Array<{ glyphID: number; pos: number }> | null;
  advance: number;
  bearing: number;
}

interface PdfReference {
  compress: boolean;
  buffer: Uint8Array[] | Buffer;
  data: { Length?: number; Filter?: string };
  uncompressedLength: number;
  write(chunk: unknown): void;
  finalize(): void;
  /** Text written and counted, not yet turned into bytes (our field). */
  consentirPending?: string;
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

/**
 * Library functions whose code the fast paths repeat in part without patching them (PDFKit's
 * _fragment, EmbeddedFont encode/layout): the shape test pins their source too.
 */
export const mirrored: Record<string, unknown> = {};

/** The original functions, kept for setFastPaths(false) and for the shape tests. */
export const originals: {
  getStyleProperty?: StyleContextStackClass["getStyleProperty"];
  getProperty?: StyleContextStackInstance["getProperty"];
  measure?: TextInlinesInstance["measure"];
  renderLine?: RendererInstance["renderLine"];
  widthOfString?: (this: EmbeddedFont, text: string, size: number, features?: unknown) => number;
  addGlyph?: TtfSubset["_addGlyph"];
  encodeSubset?: TtfSubset["encode"];
  write?: PdfReference["write"];
  finalize?: PdfReference["finalize"];
} = {};

const isValue = (value: unknown) => value !== undefined && value !== null;
const isString = (value: unknown): value is string => typeof value === "string" || value instanceof String;

/**
 * pdfmake's getStylePropertyFromStyle without its per-call closure and Set: a named style's own
 * value, else (only when it `extends` others) the original walk with cycle detection.
 */
function fromNamedStyle(
  stack: StyleContextStackInstance,
  name: StyleName,
  property: string,
  visited?: Set<StyleName>,
): unknown {
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
function getStylePropertyFast(
  item: unknown,
  stack: StyleContextStackInstance | undefined,
  property: string,
  defaultValue: unknown,
): unknown {
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
 * The stack's answer to every property measure asks about, walked once per measure call: the
 * stack does not change while the words of one text node are measured (the original walks it
 * again for every word and property). A fixed-shape object, read by name.
 */
interface StackAnswers {
  font: unknown;
  bold: unknown;
  italics: unknown;
  alignment: unknown;
  fontSize: unknown;
  fontFeatures: unknown;
  characterSpacing: unknown;
  color: unknown;
  decoration: unknown;
  decorationColor: unknown;
  decorationStyle: unknown;
  decorationThickness: unknown;
  background: unknown;
  link: unknown;
  linkToPage: unknown;
  linkToDestination: unknown;
  noWrap: unknown;
  opacity: unknown;
  sup: unknown;
  sub: unknown;
  lineHeight: unknown;
  preserveLeadingSpaces: unknown;
  preserveTrailingSpaces: unknown;
}

function stackAnswers(stack: StyleContextStackInstance | undefined): StackAnswers {
  const get = (property: string) => (stack ? getPropertyFast.call(stack, property) : undefined);
  return {
    font: get("font"),
    bold: get("bold"),
    italics: get("italics"),
    alignment: get("alignment"),
    fontSize: get("fontSize"),
    fontFeatures: get("fontFeatures"),
    characterSpacing: get("characterSpacing"),
    color: get("color"),
    decoration: get("decoration"),
    decorationColor: get("decorationColor"),
    decorationStyle: get("decorationStyle"),
    decorationThickness: get("decorationThickness"),
    background: get("background"),
    link: get("link"),
    linkToPage: get("linkToPage"),
    linkToDestination: get("linkToDestination"),
    noWrap: get("noWrap"),
    opacity: get("opacity"),
    sup: get("sup"),
    sub: get("sub"),
    lineHeight: get("lineHeight"),
    preserveLeadingSpaces: get("preserveLeadingSpaces"),
    preserveTrailingSpaces: get("preserveTrailingSpaces"),
  };
}

/**
 * getStyleProperty(item, stack, property, defaultValue) for a word whose own value (`own`) was
 * read by name: its own value, else its own named styles (only when autopush would push them:
 * not for a string or a section node), else the stack's answer, else the default.
 */
function wordValue(
  own: unknown,
  property: string,
  answer: unknown,
  defaultValue: unknown,
  stack: StyleContextStackInstance | undefined,
  styles: StackEntry | StackEntry[] | undefined,
): unknown {
  if (isValue(own)) return own;
  if (!stack) return defaultValue;
  let value: unknown;
  if (styles) {
    if (Array.isArray(styles)) {
      for (let i = styles.length - 1; i >= 0 && !isValue(value); i--) value = fromEntry(stack, styles[i]!, property);
    } else {
      value = fromEntry(stack, styles, property);
    }
  }
  if (!isValue(value)) value = answer;
  return isValue(value) ? value : defaultValue;
}

/** The styles autopush would push for an item (its `style`), or undefined. */
function ownStyles(item: MeasuredInline): StackEntry | StackEntry[] | undefined {
  if (isString(item) || typeof item.section !== "undefined") return undefined;
  return (item.style as StackEntry | StackEntry[] | undefined) || undefined;
}

/** Whether a word is `{ text }` and nothing else (most words: no own style, no line end). */
function hasOnlyText(item: MeasuredInline): boolean {
  let keys = 0;
  for (const key in item) {
    if (key !== "text") return false;
    keys++;
  }
  return keys === 1 && typeof item.text === "string";
}

/** What measure computes for a word with no property of its own: the stack's answers or defaults. */
interface PlainWordStyle {
  font: MeasuredInline["font"];
  alignment: unknown;
  fontSize: number;
  fontFeatures: unknown;
  characterSpacing: unknown;
  color: unknown;
  decoration: unknown;
  decorationColor: unknown;
  decorationStyle: unknown;
  decorationThickness: unknown;
  background: unknown;
  link: unknown;
  linkToPage: unknown;
  linkToDestination: unknown;
  noWrap: unknown;
  opacity: unknown;
  sup: unknown;
  sub: unknown;
  height: number;
  preserveLeadingSpaces: unknown;
  preserveTrailingSpaces: unknown;
}

const answerOr = (answer: unknown, defaultValue: unknown) => (isValue(answer) ? answer : defaultValue);

function plainWordStyle(inlines: TextInlinesInstance, a: StackAnswers): PlainWordStyle {
  const font = inlines.pdfDocument.provideFont(
    answerOr(a.font, "Roboto"),
    answerOr(a.bold, false),
    answerOr(a.italics, false),
  );
  const sup = answerOr(a.sup, false);
  const sub = answerOr(a.sub, false);
  let fontSize = answerOr(a.fontSize, 12) as number;
  if (sup || sub) fontSize *= 0.58;
  return {
    font,
    alignment: answerOr(a.alignment, "left"),
    fontSize,
    fontFeatures: answerOr(a.fontFeatures, null),
    characterSpacing: answerOr(a.characterSpacing, 0),
    color: answerOr(a.color, "black"),
    decoration: answerOr(a.decoration, null),
    decorationColor: answerOr(a.decorationColor, null),
    decorationStyle: answerOr(a.decorationStyle, null),
    decorationThickness: answerOr(a.decorationThickness, null),
    background: answerOr(a.background, null),
    link: answerOr(a.link, null),
    linkToPage: answerOr(a.linkToPage, null),
    linkToDestination: answerOr(a.linkToDestination, null),
    noWrap: answerOr(a.noWrap, null),
    opacity: answerOr(a.opacity, 1),
    sup,
    sub,
    height: font.lineHeight(fontSize) * (answerOr(a.lineHeight, 1) as number),
    preserveLeadingSpaces: answerOr(a.preserveLeadingSpaces, false),
    preserveTrailingSpaces: answerOr(a.preserveTrailingSpaces, false),
  };
}

/**
 * The measured word measure makes of `{ text }`, built at once with its properties in the order
 * measure adds them (the same keys, in the same order, for pdfmake's cloneInline), instead of
 * growing the word object property by property.
 */
function measurePlainWord(inlines: TextInlinesInstance, text: string, style: PlainWordStyle): MeasuredInline {
  const word: MeasuredInline = {
    text,
    font: style.font,
    alignment: style.alignment,
    fontSize: style.fontSize,
    fontFeatures: style.fontFeatures,
    characterSpacing: style.characterSpacing,
    color: style.color,
    decoration: style.decoration,
    decorationColor: style.decorationColor,
    decorationStyle: style.decorationStyle,
    decorationThickness: style.decorationThickness,
    background: style.background,
    link: style.link,
    linkToPage: style.linkToPage,
    linkToDestination: style.linkToDestination,
    noWrap: style.noWrap,
    opacity: style.opacity,
    sup: style.sup,
    sub: style.sub,
    width: 0,
    height: style.height,
    leadingCut: 0,
    trailingCut: 0,
  };
  word.width = inlines.widthOfText(text, word);
  if (!style.preserveLeadingSpaces) {
    const leadingSpaces = text.match(LEADING);
    if (leadingSpaces) word.leadingCut! += inlines.widthOfText(leadingSpaces[0], word);
  }
  if (!style.preserveTrailingSpaces) {
    const trailingSpaces = text.match(TRAILING);
    if (trailingSpaces) word.trailingCut = inlines.widthOfText(trailingSpaces[0], word);
  }
  return word;
}

/**
 * TextInlines.prototype.measure, line for line, with one change: each word's ~23 style
 * properties are read by name from the word, then its own styles (when it has any), then the
 * stack's answers (stackAnswers, once per call), instead of a getStyleProperty call (keyed
 * lookups, a stack walk) per word and property. Same values, same order of reads and writes.
 */
function measureFast(
  this: TextInlinesInstance,
  array: MeasuredInline[],
  stack: StyleContextStackInstance | undefined,
): MeasuredInline[] {
  if (array.length) {
    const leadingIndent = getStylePropertyFast(array[0]!, stack, "leadingIndent", 0) as number;
    if (leadingIndent) {
      array[0]!.leadingCut = -leadingIndent;
      array[0]!.leadingIndent = leadingIndent;
    }
  }
  const a = stackAnswers(stack);
  let plain: PlainWordStyle | undefined;
  for (let index = 0; index < array.length; index++) {
    const item = array[index]!;
    if (stack && hasOnlyText(item)) {
      // Resolved at the first such word, where the original resolves its font (font order).
      plain ??= plainWordStyle(this, a);
      array[index] = measurePlainWord(this, item.text, plain);
      continue;
    }
    const s = stack ? ownStyles(item) : undefined;
    const font = wordValue(item.font, "font", a.font, "Roboto", stack, s);
    const bold = wordValue(item.bold, "bold", a.bold, false, stack, s);
    const italics = wordValue(item.italics, "italics", a.italics, false, stack, s);
    item.font = this.pdfDocument.provideFont(font, bold, italics);
    item.alignment = wordValue(item.alignment, "alignment", a.alignment, "left", stack, s);
    item.fontSize = wordValue(item.fontSize, "fontSize", a.fontSize, 12, stack, s) as number;
    item.fontFeatures = wordValue(item.fontFeatures, "fontFeatures", a.fontFeatures, null, stack, s);
    item.characterSpacing = wordValue(item.characterSpacing, "characterSpacing", a.characterSpacing, 0, stack, s);
    item.color = wordValue(item.color, "color", a.color, "black", stack, s);
    item.decoration = wordValue(item.decoration, "decoration", a.decoration, null, stack, s);
    item.decorationColor = wordValue(item.decorationColor, "decorationColor", a.decorationColor, null, stack, s);
    item.decorationStyle = wordValue(item.decorationStyle, "decorationStyle", a.decorationStyle, null, stack, s);
    item.decorationThickness = wordValue(
      item.decorationThickness,
      "decorationThickness",
      a.decorationThickness,
      null,
      stack,
      s,
    );
    item.background = wordValue(item.background, "background", a.background, null, stack, s);
    item.link = wordValue(item.link, "link", a.link, null, stack, s);
    item.linkToPage = wordValue(item.linkToPage, "linkToPage", a.linkToPage, null, stack, s);
    item.linkToDestination = wordValue(
      item.linkToDestination,
      "linkToDestination",
      a.linkToDestination,
      null,
      stack,
      s,
    );
    item.noWrap = wordValue(item.noWrap, "noWrap", a.noWrap, null, stack, s);
    item.opacity = wordValue(item.opacity, "opacity", a.opacity, 1, stack, s);
    item.sup = wordValue(item.sup, "sup", a.sup, false, stack, s);
    item.sub = wordValue(item.sub, "sub", a.sub, false, stack, s);
    if (item.sup || item.sub) {
      item.fontSize *= 0.58;
    }
    const lineHeight = wordValue(item.lineHeight, "lineHeight", a.lineHeight, 1, stack, s) as number;
    item.width = this.widthOfText(item.text, item);
    item.height = item.font.lineHeight(item.fontSize) * lineHeight;
    if (!item.leadingCut) {
      item.leadingCut = 0;
    }
    if (!wordValue(item.preserveLeadingSpaces, "preserveLeadingSpaces", a.preserveLeadingSpaces, false, stack, s)) {
      const leadingSpaces = item.text.match(LEADING);
      if (leadingSpaces) {
        item.leadingCut += this.widthOfText(leadingSpaces[0], item);
      }
    }
    item.trailingCut = 0;
    if (!wordValue(item.preserveTrailingSpaces, "preserveTrailingSpaces", a.preserveTrailingSpaces, false, stack, s)) {
      const trailingSpaces = item.text.match(TRAILING);
      if (trailingSpaces) {
        item.trailingCut = this.widthOfText(trailingSpaces[0], item);
      }
    }
  }
  return array;
}

/** PDFKit's PDFObject.number (how every coordinate is written). */
function pdfNumber(n: number): number {
  if (n > -1e21 && n < 1e21) return Math.round(n * 1e6) / 1e6;
  throw new Error(`unsupported number: ${n}`);
}

const isNumber = (value: unknown) => (typeof value === "number" || value instanceof Number) && !Number.isNaN(value);

/** A line whose words renderLineFast draws: plain words, no links, outlines, features or offsets. */
function isPlainLine(line: RenderLine): boolean {
  if (line._outline || line._pageNodeRef || line.id) return false;
  for (const inline of line.inlines) {
    if (typeof inline.text !== "string" || inline.text.length === 0 || inline.text.includes("\n")) return false;
    if (inline._pageNodeRef || inline.link || inline.linkToPage || inline.linkToDestination || inline.fontFeatures)
      return false;
    if (inline.characterSpacing || inline.sup || inline.sub) return false;
    if (inline.color !== undefined && inline.color !== null && typeof inline.color !== "string") return false;
  }
  return true;
}

/**
 * Renderer.prototype.renderLine draws each word with its own PDFKit text() call, and PDFKit wraps
 * each in the same dozen operators: opacity, colour space, colour, an empty fill, q, the page
 * flip, BT, the text matrix, the font, the glyphs, ET, Q. Here consecutive words of a line with
 * the same font, size, colour and opacity share one such wrapper: each word keeps its own text
 * matrix (the same absolute position, written the same way) and its own glyph array, built as
 * PDFKit's _fragment builds it. Nothing drawn changes: only repeated state operators go.
 */
function renderLineFast(
  this: RendererInstance,
  line: RenderLine,
  x: number,
  y: number,
  TextDecorator: PdfLibraries["TextDecorator"],
): void {
  const doc = this.pdfDocument;
  x = x || 0;
  y = y || 0;
  const lineHeight = line.getHeight();
  const ascenderHeight = line.getAscenderHeight();
  const descent = lineHeight - ascenderHeight;
  const textDecorator = new TextDecorator(doc);
  textDecorator.drawBackground(line, x, y);

  let open: { font: EmbeddedFont; fontSize: number; color: unknown; opacity: number } | null = null;
  let lastX = 0;
  let lastY = 0;
  let lastText = "";
  // resolveColor only checks a colour (and answers the colour or "black"): once per colour a line.
  let colorIn: unknown = {};
  let colorOut: unknown;
  for (const inline of line.inlines) {
    const font = inline.font;
    const fontSize = inline.fontSize;
    const opacity = isNumber(inline.opacity) ? (inline.opacity as number) : 1;
    if (inline.color !== colorIn) {
      colorIn = inline.color;
      colorOut = doc.resolveColor(inline.color, "black");
    }
    const color = colorOut;
    if (!open || open.font !== font || open.fontSize !== fontSize || open.color !== color || open.opacity !== opacity) {
      if (open) {
        doc.addContent("ET");
        doc.restore();
      }
      // What renderLine sets before each text() call, then what _fragment writes before the glyphs.
      doc.opacity(opacity);
      doc.fill(color);
      doc._font = font;
      doc.fontSize(fontSize);
      doc.save();
      doc.transform(1, 0, 0, -1, 0, doc.page.height);
      if (doc.page.fonts[font.id] == null) doc.page.fonts[font.id] = font.ref();
      doc.addContent("BT");
      open = { font, fontSize, color, opacity };
      lastX = x + inline.x;
      lastY = y + (lineHeight - (font.ascender / 1000) * fontSize - descent);
      glyphs(doc, inline.text, lastX, lastY, font, fontSize, true);
    } else {
      lastX = x + inline.x;
      lastY = y + (lineHeight - (font.ascender / 1000) * fontSize - descent);
      glyphs(doc, inline.text, lastX, lastY, font, fontSize, false);
    }
    lastText = inline.text;
  }
  if (open) {
    doc.addContent("ET");
    doc.restore();
    // Where PDFKit leaves its cursor after the last word (x advanced by the word's width).
    doc.x = lastX + doc.widthOfString(lastText);
    doc.y = lastY;
  }
  textDecorator.drawDecorations(line, x, y);
}

/** Reused between words (no allocation per word): the glyph codes and positions of one word. */
const wordHex: string[] = [];
const wordPositions: GlyphPosition[] = [];

/**
 * EmbeddedFont.encode(text) without features, writing into wordHex/wordPositions: the same
 * pieces (split after each space or tab, as EmbeddedFont.layout splits), the same cached runs,
 * the same glyphs added to the subset in the same order, the same widths and ToUnicode entries.
 * The 4-digit code of each subset glyph is kept per document font instead of formatted again.
 */
function encodeWord(font: EmbeddedFont, text: string): void {
  wordHex.length = 0;
  wordPositions.length = 0;
  const hexOf = (font.consentirHex ??= []);
  let last = 0;
  let index = 0;
  while (index <= text.length) {
    const needle = text.charAt(index);
    if ((index === text.length && last < index) || needle === " " || needle === "\t") {
      const run = font.layoutCached(text.slice(last, ++index));
      for (let g = 0; g < run.glyphs.length; g++) {
        const glyph = run.glyphs[g]!;
        const gid = font.subset.includeGlyph(glyph.id);
        let hex = hexOf[gid];
        if (hex === undefined) hex = hexOf[gid] = `0000${gid.toString(16)}`.slice(-4);
        wordHex.push(hex);
        if (font.widths[gid] == null) font.widths[gid] = glyph.advanceWidth * font.scale;
        if (font.unicode[gid] == null) font.unicode[gid] = glyph.codePoints;
        wordPositions.push(run.positions[g]!);
      }
      last = index;
    } else {
      index++;
    }
  }
}

/** `[<hex> adjust …] TJ` pieces of PDFKit's _fragment (addSegment/flush), without closures. */
const tjCommands: string[] = [];
/** The operators of the word being drawn, written as one piece (one line each, as PDFKit writes them). */
const wordOps: string[] = [];

function addSegment(from: number, to: number): void {
  if (from < to) {
    let hex = "";
    for (let k = from; k < to; k++) hex += wordHex[k]!;
    const position = wordPositions[to - 1]!;
    tjCommands.push(`<${hex}> ${pdfNumber(-(position.xAdvance - position.advanceWidth))}`);
  }
}

function flushSegments(): void {
  if (tjCommands.length > 0) {
    wordOps.push(`[${tjCommands.join(" ")}] TJ`);
    tjCommands.length = 0;
  }
}

/**
 * What drawing a word without glyph offsets needs, the same for every document (kept per shared
 * word cache, fonts.ts): the font's glyphs in order (as EmbeddedFont.layout pieces them) and the
 * glyph array's shape, where each `<hex> adjust` piece ends and its adjust already written.
 */
interface WordPlan {
  glyphs: Array<{ id: number; advanceWidth: number; codePoints: number[] }>;
  /** Index after the last glyph of each piece. */
  ends: number[];
  /** Each piece's adjust, written as PDFKit writes it. */
  adjusts: string[];
}

const MAX_CACHED_PLANS = 50_000;

/** Kept per shared word cache (fonts.ts): word widths and word plans, the same for every document. */
interface SharedWordData {
  cache: object;
  /** Advance widths (font units × 1000/unitsPerEm) by text. */
  widths: Map<string, number>;
  plans: Map<string, WordPlan | null>;
}

const sharedByCache = new WeakMap<object, SharedWordData>();

/** The shared data of the font's word cache, looked up once per document font (not per word). */
function sharedData(font: EmbeddedFont): SharedWordData | undefined {
  const cache = font.layoutCache;
  if (!cache) return undefined;
  let data = font.consentirShared;
  if (data === undefined || data.cache !== cache) {
    data = sharedByCache.get(cache);
    if (!data) sharedByCache.set(cache, (data = { cache, widths: new Map(), plans: new Map() }));
    font.consentirShared = data;
  }
  return data;
}

/**
 * The plan of a word (null when one of its glyphs has an x/y offset: such words take the whole
 * path every time). Pieces end where _fragment's addSegment ends them: after a glyph whose advance
 * differs from its width, and after the last glyph.
 */
function planOf(font: EmbeddedFont, text: string): WordPlan | null {
  const plans = sharedData(font)?.plans;
  if (plans) {
    const known = plans.get(text);
    if (known !== undefined) return known;
  }
  let plan: WordPlan | null = { glyphs: [], ends: [], adjusts: [] };
  let last = 0;
  let index = 0;
  let count = 0;
  outer: while (index <= text.length) {
    const needle = text.charAt(index);
    if ((index === text.length && last < index) || needle === " " || needle === "\t") {
      const run = font.layoutCached(text.slice(last, ++index));
      for (let g = 0; g < run.glyphs.length; g++) {
        const position = run.positions[g]!;
        if (position.xOffset || position.yOffset) {
          plan = null;
          break outer;
        }
        plan.glyphs.push(run.glyphs[g]!);
        count++;
        if (position.xAdvance - position.advanceWidth !== 0) {
          plan.ends.push(count);
          plan.adjusts.push(String(pdfNumber(-(position.xAdvance - position.advanceWidth))));
        }
      }
      last = index;
    } else {
      index++;
    }
  }
  if (plan && count > 0 && plan.ends[plan.ends.length - 1] !== count) {
    // The last piece ends after the last glyph; its adjust is that glyph's (0 here, as `0`).
    plan.ends.push(count);
    plan.adjusts.push(String(pdfNumber(-0)));
  }
  if (plans) {
    if (plans.size >= MAX_CACHED_PLANS) plans.clear();
    plans.set(text, plan);
  }
  return plan;
}

/**
 * The word's glyph array for this document font, from its plan: each glyph added to the subset,
 * with its width and ToUnicode entry, in order, exactly as encodeWord does.
 */
function glyphArray(font: EmbeddedFont, plan: WordPlan): string {
  const hexOf = (font.consentirHex ??= []);
  let out = "[";
  let piece = 0;
  let hex = "";
  for (let k = 0; k < plan.glyphs.length; k++) {
    const glyph = plan.glyphs[k]!;
    const gid = font.subset.includeGlyph(glyph.id);
    let code = hexOf[gid];
    if (code === undefined) code = hexOf[gid] = `0000${gid.toString(16)}`.slice(-4);
    hex += code;
    if (font.widths[gid] == null) font.widths[gid] = glyph.advanceWidth * font.scale;
    if (font.unicode[gid] == null) font.unicode[gid] = glyph.codePoints;
    if (k + 1 === plan.ends[piece]) {
      out += `${piece === 0 ? "" : " "}<${hex}> ${plan.adjusts[piece]!}`;
      hex = "";
      piece++;
    }
  }
  return `${out}] TJ`;
}

/** The last baseline written and its text (y in PDF space, as pdfNumber writes it). */
let lastBaseline = Number.NaN;
let lastBaselineText = "";

/**
 * PDFKit's _fragment from the text matrix to the last TJ, for a word without word spacing,
 * written as one piece (the same lines, the same bytes).
 *
 * A word whose glyphs have no x/y offsets (all of Roboto's Latin text) is drawn from its plan
 * (planOf, shared by all documents), and its glyph array, which depends only on the document
 * font and the word, not on where it is drawn, is kept per document font and written again when
 * the word comes back (PDFKit's encode would add nothing new to the font the second time).
 */
function glyphs(
  doc: RenderDocument,
  text: string,
  x: number,
  top: number,
  font: EmbeddedFont,
  fontSize: number,
  withFont: boolean,
): void {
  const dy = (font.ascender / 1000) * fontSize;
  const y = doc.page.height - top - dy;
  // The words of a line share their y: written once per line, not once per word.
  if (y !== lastBaseline) {
    lastBaseline = y;
    lastBaselineText = String(pdfNumber(y));
  }
  const matrix = withFont
    ? `1 0 0 1 ${pdfNumber(x)} ${lastBaselineText} Tm\n/${font.id} ${pdfNumber(fontSize)} Tf`
    : `1 0 0 1 ${pdfNumber(x)} ${lastBaselineText} Tm`;
  const arrays = (font.consentirTj ??= new Map());
  let array = arrays.get(text);
  if (array === undefined) {
    const plan = planOf(font, text);
    if (plan === null) {
      glyphsWithOffsets(doc, text, x, y, font, fontSize, matrix);
      return;
    }
    array = plan.glyphs.length > 0 ? glyphArray(font, plan) : "";
    arrays.set(text, array);
  }
  doc.addContent(array === "" ? matrix : `${matrix}\n${array}`);
}

/** _fragment's loop, position by position, for a word with glyph offsets. */
function glyphsWithOffsets(
  doc: RenderDocument,
  text: string,
  x: number,
  y: number,
  font: EmbeddedFont,
  fontSize: number,
  matrix: string,
): void {
  wordOps.length = 0;
  wordOps.push(matrix);
  encodeWord(font, text);
  const scale = fontSize / 1000;
  let last = 0;
  let hadOffset = false;
  let i: number;
  for (i = 0; i < wordPositions.length; i++) {
    const pos = wordPositions[i]!;
    if (pos.xOffset || pos.yOffset) {
      addSegment(last, i);
      last = i;
      flushSegments();
      wordOps.push(`1 0 0 1 ${pdfNumber(x + pos.xOffset * scale)} ${pdfNumber(y + pos.yOffset * scale)} Tm`);
      addSegment(last, i + 1);
      last = i + 1;
      flushSegments();
      hadOffset = true;
    } else {
      if (hadOffset) {
        wordOps.push(`1 0 0 1 ${pdfNumber(x)} ${pdfNumber(y)} Tm`);
        hadOffset = false;
      }
      if (pos.xAdvance - pos.advanceWidth !== 0) {
        addSegment(last, i + 1);
        last = i + 1;
      }
    }
    x += pos.xAdvance * scale;
  }
  addSegment(last, i);
  flushSegments();
  doc.addContent(wordOps.join("\n"));
}

const MAX_CACHED_WIDTHS = 50_000;

/**
 * EmbeddedFont.widthOfString without features: the same sum of the same cached runs (layout with
 * onlyWidth), kept by text next to the word cache it was computed from, then scaled as PDFKit does.
 */
function widthOfStringFast(this: EmbeddedFont, text: string, size: number): number {
  const widths = sharedData(this)?.widths;
  let width = widths?.get(text);
  if (width === undefined) {
    width = this.layout(text, undefined, true).advanceWidth;
    if (widths) {
      if (widths.size >= MAX_CACHED_WIDTHS) widths.clear();
      widths.set(text, width);
    }
  }
  const scale = size / 1000;
  return width * scale;
}

const glyphEntries = new WeakMap<FontkitFont, Map<number, GlyphEntry>>();

/**
 * fontkit's TTFSubset._addGlyph decodes the glyph's outline (only to learn whether it is
 * compound), reads its bytes from the font and its metrics, for every glyph of every document.
 * The fonts are parsed once per process (fonts.ts), so what it reads is kept per font and glyph;
 * a compound glyph's component ids are still renumbered for each subset, in the same order.
 */
function addGlyphFast(this: TtfSubset, gid: number): number {
  const font = this.font;
  let entries = glyphEntries.get(font);
  if (!entries) glyphEntries.set(font, (entries = new Map()));
  let entry = entries.get(gid);
  if (!entry) {
    const glyph = font.getGlyph(gid);
    const glyf = glyph._decode();
    const stream = font._getTableStream("glyf");
    stream.pos += font.loca.offsets[gid]!;
    const bytes = stream.readBuffer(font.loca.offsets[gid + 1]! - font.loca.offsets[gid]!);
    entry = {
      bytes: Uint8Array.from(bytes),
      components:
        glyf && glyf.numberOfContours < 0 ? glyf.components!.map((c) => ({ glyphID: c.glyphID, pos: c.pos })) : null,
      advance: glyph.advanceWidth,
      bearing: glyph._getMetrics().leftBearing,
    };
    entries.set(gid, entry);
  }
  let buffer = entry.bytes;
  if (entry.components) {
    buffer = new Uint8Array(entry.bytes);
    const view = new DataView(buffer.buffer);
    for (const component of entry.components) view.setUint16(component.pos, this.includeGlyph(component.glyphID));
  }
  this.glyf.push(buffer);
  this.loca.offsets.push(this.offset);
  this.hmtx.metrics.push({ advance: entry.advance, bearing: entry.bearing });
  this.offset += buffer.length;
  return this.glyf.length - 1;
}

/**
 * PDFReference.write turns every content operator (a few per word drawn) into its own Buffer:
 * keep the text (counted exactly as the original counts it: one byte per character, plus the
 * newline) and make one Buffer when bytes must follow or the stream ends. Same bytes, same order.
 */
function writeFast(this: PdfReference, chunk: unknown): void {
  if (chunk instanceof Uint8Array) {
    flushPending(this);
    originals.write!.call(this, chunk);
    return;
  }
  const text = `${chunk as string}\n`;
  this.uncompressedLength += text.length;
  if (this.data.Length == null) this.data.Length = 0;
  this.data.Length += text.length;
  if (this.compress) this.data.Filter = "FlateDecode";
  this.consentirPending = this.consentirPending === undefined ? text : this.consentirPending + text;
}

function flushPending(reference: PdfReference): void {
  if (reference.consentirPending === undefined) return;
  (reference.buffer as Uint8Array[]).push(Buffer.from(reference.consentirPending, "latin1"));
  reference.consentirPending = undefined;
}

/**
 * PDFReference.finalize deflates a stream with zlib's default level; compress it first at
 * STREAM_DEFLATE_LEVEL and let the original write it as it is (its /Filter is already set).
 */
function finalizeFast(this: PdfReference): void {
  flushPending(this);
  if (this.compress && Array.isArray(this.buffer) && this.buffer.length > 0) {
    this.buffer = [
      deflateSync(this.buffer.length === 1 ? this.buffer[0]! : Buffer.concat(this.buffer), {
        level: STREAM_DEFLATE_LEVEL,
      }),
    ];
    this.compress = false;
  }
  originals.finalize!.call(this);
}

/** Installs every fast path (once per process). */
export function installFastPaths(libraries: PdfLibraries): void {
  if (installed) return;
  installed = true;
  const { StyleContextStack } = libraries;
  const pdfkitPrototype = libraries.PDFKitDocument.prototype as Record<string, unknown>;
  const fontPrototype = libraries.EmbeddedFont as Record<string, unknown>;
  Object.assign(mirrored, {
    _fragment: pdfkitPrototype._fragment,
    _line: pdfkitPrototype._line,
    encode: fontPrototype.encode,
    layout: fontPrototype.layout,
    layoutCached: fontPrototype.layoutCached,
  });

  originals.getStyleProperty = StyleContextStack.getStyleProperty;
  originals.getProperty = StyleContextStack.prototype.getProperty;
  StyleContextStack.getStyleProperty = function (item, stack, property, defaultValue) {
    return enabled
      ? getStylePropertyFast(item, stack, property, defaultValue)
      : originals.getStyleProperty!.call(this, item, stack, property, defaultValue);
  };
  StyleContextStack.prototype.getProperty = function (property) {
    return enabled ? getPropertyFast.call(this, property) : originals.getProperty!.call(this, property);
  };

  const textInlines = libraries.TextInlines.prototype;
  originals.measure = textInlines.measure;
  textInlines.measure = function (array, stack) {
    return enabled ? measureFast.call(this, array, stack) : originals.measure!.call(this, array, stack);
  };

  const renderer = libraries.Renderer.prototype;
  originals.renderLine = renderer.renderLine;
  renderer.renderLine = function (line, x, y) {
    return enabled && isPlainLine(line)
      ? renderLineFast.call(this, line, x, y, libraries.TextDecorator)
      : originals.renderLine!.call(this, line, x, y);
  };

  originals.widthOfString = fontPrototype.widthOfString as typeof originals.widthOfString;
  fontPrototype.widthOfString = function (this: EmbeddedFont, text: string, size: number, features?: unknown) {
    return enabled && !features
      ? widthOfStringFast.call(this, text, size)
      : originals.widthOfString!.call(this, text, size, features);
  };

  const subset = libraries.TTFSubset;
  originals.addGlyph = subset._addGlyph;
  subset._addGlyph = function (gid) {
    // Variable fonts re-encode outlines: left to fontkit (Roboto here is not one).
    return enabled && !this.font._variationProcessor
      ? addGlyphFast.call(this, gid)
      : originals.addGlyph!.call(this, gid);
  };
  originals.encodeSubset = subset.encode;
  const fontkitEncode = (target: TtfSubsetLike) => originals.encodeSubset!.call(target as unknown as TtfSubset);
  subset.encode = function () {
    // Variable fonts re-encode outlines: left to fontkit, as _addGlyph is.
    return enabled && !this.font._variationProcessor
      ? encodeSubsetFast(this as unknown as TtfSubsetLike, fontkitEncode)
      : originals.encodeSubset!.call(this);
  };

  const referenceClass = Object.getPrototypeOf(
    new libraries.PDFKitDocument({ autoFirstPage: false }).ref(),
  ) as PdfReference;
  originals.finalize = referenceClass.finalize;
  originals.write = referenceClass.write;
  referenceClass.write = function (chunk) {
    return enabled ? writeFast.call(this, chunk) : (flushPending(this), originals.write!.call(this, chunk));
  };
  referenceClass.finalize = function () {
    if (enabled) return finalizeFast.call(this);
    flushPending(this);
    return originals.finalize!.call(this);
  };
}
