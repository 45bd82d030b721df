/**
 * Audio consent (decision 069): the limits both sides keep, the sentence the patient reads, and
 * a small sniffer that tells an audio file from anything else by its bytes (never by the declared
 * Content-Type) and measures its length where the container says it.
 */

/** At most 3 minutes of recording. */
export const AUDIO_MAX_MS = 3 * 60_000;
/** At least one second: an empty recording proves nothing. */
export const AUDIO_MIN_MS = 1_000;
/** At most 3 MB (Opus at 32 kbit/s makes about 0.7 MB in 3 minutes; WAV is larger, kept short). */
export const AUDIO_MAX_BYTES = 3 * 1024 * 1024;
/** Uploads per link: a few redos, never an unbounded store of a stranger's files. */
export const AUDIO_MAX_UPLOADS = 5;
/** A container's own length may be a little over the recorder's clock. */
const DURATION_SLACK_MS = 1_500;

export type AudioKind = "webm" | "ogg" | "mp4" | "wav";

export interface SniffedAudio {
  kind: AudioKind;
  /** The MIME type the bytes are served as. */
  mime: "audio/webm" | "audio/ogg" | "audio/mp4" | "audio/wav";
  ext: "webm" | "ogg" | "m4a" | "wav";
}

const MIME: Record<AudioKind, SniffedAudio> = {
  webm: { kind: "webm", mime: "audio/webm", ext: "webm" },
  ogg: { kind: "ogg", mime: "audio/ogg", ext: "ogg" },
  mp4: { kind: "mp4", mime: "audio/mp4", ext: "m4a" },
  wav: { kind: "wav", mime: "audio/wav", ext: "wav" },
};

/** The Content-Types a browser may send a recording with (the bytes decide what it is). */
export const AUDIO_UPLOAD_TYPES = [
  "audio/webm",
  "audio/ogg",
  "audio/mp4",
  "audio/x-m4a",
  "audio/m4a",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "application/octet-stream",
] as const;

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (at < 0 || at + length > bytes.length) return "";
  let out = "";
  for (let i = at; i < at + length; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

function indexOf(bytes: Uint8Array, needle: readonly number[], from = 0, to = bytes.length): number {
  const end = Math.min(to, bytes.length) - needle.length;
  outer: for (let i = Math.max(0, from); i <= end; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function lastIndexOf(bytes: Uint8Array, needle: readonly number[]): number {
  for (let i = bytes.length - needle.length; i >= 0; i--) {
    let hit = true;
    for (let j = 0; j < needle.length; j++)
      if (bytes[i + j] !== needle[j]) {
        hit = false;
        break;
      }
    if (hit) return i;
  }
  return -1;
}

const bytesOf = (s: string) => [...s].map((c) => c.charCodeAt(0));
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u32le = (b: Uint8Array, at: number) =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

const EBML = [0x1a, 0x45, 0xdf, 0xa3];
const TRACKS = [0x16, 0x54, 0xae, 0x6b];
const CLUSTER = [0x1f, 0x43, 0xb6, 0x75];

/** WebM: the EBML header with DocType "webm", and an audio track but no video track. */
function isAudioWebm(b: Uint8Array): boolean {
  if (indexOf(b, EBML, 0, 4) !== 0) return false;
  // DocType (0x4282), size 0x84, "webm", within the header.
  if (indexOf(b, [0x42, 0x82, 0x84, ...bytesOf("webm")], 0, 64) < 0) return false;
  const tracks = indexOf(b, TRACKS, 0, 8192);
  if (tracks < 0) return false;
  const size = vint(b, tracks + 4);
  if (!size) return false;
  // Within the Tracks element only: TrackType (0x83), one byte: 1 video, 2 audio.
  const region = [tracks, Math.min(tracks + 4 + size.length + size.value, tracks + 8192)] as const;
  const audio = indexOf(b, [0x83, 0x81, 0x02], ...region) >= 0;
  const video = indexOf(b, [0x83, 0x81, 0x01], ...region) >= 0;
  return audio && !video;
}

/** Ogg: "OggS" and, in the first page, an Opus or Vorbis (audio) stream. */
function isAudioOgg(b: Uint8Array): boolean {
  if (ascii(b, 0, 4) !== "OggS") return false;
  return indexOf(b, bytesOf("OpusHead"), 0, 512) >= 0 || indexOf(b, [0x01, ...bytesOf("vorbis")], 0, 512) >= 0;
}

/** MP4 / M4A: an "ftyp" box first, then a sound handler and no video handler. */
function isAudioMp4(b: Uint8Array): boolean {
  if (ascii(b, 4, 4) !== "ftyp") return false;
  const hdlr = bytesOf("hdlr");
  let sound = false;
  let video = false;
  for (let at = indexOf(b, hdlr); at >= 0; at = indexOf(b, hdlr, at + 4)) {
    const handler = ascii(b, at + 12, 4);
    if (handler === "soun") sound = true;
    if (handler === "vide") video = true;
  }
  return sound && !video;
}

/** WAV: RIFF … WAVE with a PCM-like fmt chunk. */
function isWav(b: Uint8Array): boolean {
  return ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WAVE" && indexOf(b, bytesOf("fmt "), 12, 256) >= 0;
}

/** What the bytes are, or null when they are not one of the accepted audio containers. */
export function sniffAudio(bytes: Uint8Array): SniffedAudio | null {
  if (bytes.length < 16) return null;
  if (isAudioWebm(bytes)) return MIME.webm;
  if (isAudioOgg(bytes)) return MIME.ogg;
  if (isAudioMp4(bytes)) return MIME.mp4;
  if (isWav(bytes)) return MIME.wav;
  return null;
}

/** An EBML variable-length integer at `at`: its value and length, or null. */
function vint(b: Uint8Array, at: number): { value: number; length: number } | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || at + length > b.length) return null;
  let value = first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + b[at + i]!;
  return { value, length };
}

function uintAt(b: Uint8Array, at: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) value = value * 256 + b[at + i]!;
  return value;
}

/** WebM: the Duration in Info when written, else the last cluster's start (a lower bound). */
function webmDuration(b: Uint8Array): { ms: number; exact: boolean } | null {
  const duration = indexOf(b, [0x44, 0x89], 0, 4096);
  if (duration >= 0) {
    const size = vint(b, duration + 2);
    if (size && (size.value === 4 || size.value === 8)) {
      const view = new DataView(b.buffer, b.byteOffset + duration + 2 + size.length, size.value);
      const value = size.value === 4 ? view.getFloat32(0) : view.getFloat64(0);
      if (Number.isFinite(value) && value > 0) return { ms: Math.round(value), exact: true };
    }
  }
  const cluster = lastIndexOf(b, CLUSTER);
  if (cluster < 0) return null;
  const size = vint(b, cluster + 4);
  if (!size) return null;
  const timecode = cluster + 4 + size.length;
  if (b[timecode] !== 0xe7) return null;
  const tcSize = vint(b, timecode + 1);
  if (!tcSize || tcSize.value > 8 || timecode + 1 + tcSize.length + tcSize.value > b.length) return null;
  return { ms: uintAt(b, timecode + 1 + tcSize.length, tcSize.value), exact: false };
}

/** Ogg: the last page's granule position (Opus counts at 48 kHz; Vorbis at its own rate). */
function oggDuration(b: Uint8Array): { ms: number; exact: boolean } | null {
  const last = lastIndexOf(b, bytesOf("OggS"));
  if (last < 0 || last + 14 > b.length) return null;
  const granule = u32le(b, last + 6) + u32le(b, last + 10) * 2 ** 32;
  let rate = 48_000;
  const vorbis = indexOf(b, [0x01, ...bytesOf("vorbis")], 0, 512);
  if (vorbis >= 0 && vorbis + 16 <= b.length) rate = u32le(b, vorbis + 12) || rate;
  return { ms: Math.round((granule / rate) * 1000), exact: true };
}

/** MP4: the movie header's duration (0 in a fragmented file: unknown). */
function mp4Duration(b: Uint8Array): { ms: number; exact: boolean } | null {
  const at = indexOf(b, bytesOf("mvhd"));
  if (at < 0) return null;
  const version = b[at + 4];
  const base = at + 8;
  const [timescale, duration] =
    version === 1
      ? [u32be(b, base + 16), u32be(b, base + 20) * 2 ** 32 + u32be(b, base + 24)]
      : [u32be(b, base + 8), u32be(b, base + 12)];
  if (!timescale || !duration) return null;
  return { ms: Math.round((duration / timescale) * 1000), exact: true };
}

/** WAV: the data chunk's size over the byte rate. */
function wavDuration(b: Uint8Array): { ms: number; exact: boolean } | null {
  const fmt = indexOf(b, bytesOf("fmt "), 12, 256);
  const data = indexOf(b, bytesOf("data"), 12);
  if (fmt < 0 || data < 0 || fmt + 20 > b.length || data + 8 > b.length) return null;
  const byteRate = u32le(b, fmt + 16);
  if (!byteRate) return null;
  const size = Math.min(u32le(b, data + 4), b.length - data - 8);
  return { ms: Math.round((size / byteRate) * 1000), exact: true };
}

/** The length the container states (exact) or implies (a lower bound), or null when it says none. */
export function measureAudioMs(bytes: Uint8Array, kind: AudioKind): { ms: number; exact: boolean } | null {
  switch (kind) {
    case "webm":
      return webmDuration(bytes);
    case "ogg":
      return oggDuration(bytes);
    case "mp4":
      return mp4Duration(bytes);
    case "wav":
      return wavDuration(bytes);
  }
}

export type AudioCheck =
  | { ok: true; audio: SniffedAudio; duracao_ms: number }
  | { ok: false; reason: "not_audio" | "too_big" | "too_long" | "too_short" };

/**
 * The server's verdict on one upload: audio by its bytes, within the size cap, and within the
 * time cap by both the recorder's clock (declared) and the container (measured). The length kept
 * is the container's when it states one, else the larger of the two.
 */
export function checkAudio(bytes: Uint8Array, declaredMs: number): AudioCheck {
  if (bytes.length > AUDIO_MAX_BYTES) return { ok: false, reason: "too_big" };
  const audio = sniffAudio(bytes);
  if (!audio) return { ok: false, reason: "not_audio" };
  const measured = measureAudioMs(bytes, audio.kind);
  if (declaredMs > AUDIO_MAX_MS + DURATION_SLACK_MS) return { ok: false, reason: "too_long" };
  if (measured && measured.ms > AUDIO_MAX_MS + DURATION_SLACK_MS) return { ok: false, reason: "too_long" };
  const ms = measured?.exact ? measured.ms : Math.max(declaredMs, measured?.ms ?? 0);
  if (ms < AUDIO_MIN_MS) return { ok: false, reason: "too_short" };
  return { ok: true, audio, duracao_ms: Math.min(ms, AUDIO_MAX_MS + DURATION_SLACK_MS) };
}

/** "0 min 12 s", as the registry and the staff page print a length. */
export function audioDurationLabel(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The sentence the patient reads aloud: their name and the document's title. */
export function agreementSentence(nome: string, titulo: string): string {
  return `Eu, ${nome}, li e entendi o documento “${titulo}”, tive a oportunidade de tirar minhas dúvidas e concordo com ele.`;
}

/** What the signature's event and evidencias.json keep about the audio (decision 069). */
export interface AudioEvidence {
  /** The clinic asked for it. */
  pedido: true;
  /** Recorded and kept with the signature; false: signed without it (no microphone, refused). */
  gravado: boolean;
  sha256?: string;
  duracao_ms?: number;
  mime?: string;
  tamanho?: number;
  frase?: string;
  gravado_em?: string;
}

/** The registry's line: "Áudio do aceite: SHA-256 …, 0 min 12 s". */
export function audioEvidenceLine(audio: AudioEvidence): string {
  if (!audio.gravado || !audio.sha256 || audio.duracao_ms === undefined)
    return "Áudio do aceite: pedido pela clínica, não gravado (o signatário assinou sem gravar).";
  return `Áudio do aceite: SHA-256 ${audio.sha256}, ${audioDurationLabel(audio.duracao_ms)}.`;
}

/** Reads the `audio` key of a signature's event data, or null. */
export function readAudioEvidence(value: unknown): AudioEvidence | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  if (v.pedido !== true || typeof v.gravado !== "boolean") return null;
  const out: AudioEvidence = { pedido: true, gravado: v.gravado };
  if (typeof v.sha256 === "string" && /^[0-9a-f]{64}$/.test(v.sha256)) out.sha256 = v.sha256;
  if (typeof v.duracao_ms === "number" && Number.isFinite(v.duracao_ms)) out.duracao_ms = v.duracao_ms;
  if (typeof v.mime === "string") out.mime = v.mime;
  if (typeof v.tamanho === "number") out.tamanho = v.tamanho;
  if (typeof v.frase === "string") out.frase = v.frase;
  if (typeof v.gravado_em === "string") out.gravado_em = v.gravado_em;
  return out;
}
