/**
 * Small audio files built byte by byte (no encoder on the CI machine): a PCM WAV, and the
 * headers of the WebM, Ogg and MP4 a browser's MediaRecorder makes, enough for the sniffer
 * (decision 069) to recognise them and read their length.
 */

/** 8 kHz mono 8-bit PCM: `seconds` of a quiet tone. */
export function wavFile(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // byte rate
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples, 40);
  const body = Buffer.alloc(samples);
  for (let i = 0; i < samples; i++) body[i] = 128 + Math.round(20 * Math.sin(i / 4));
  return Buffer.concat([header, body]);
}

const ebml = (id: number[], payload: Buffer) => {
  // Sizes as 8-byte vints (0x01 then 7 bytes): always valid.
  const size = Buffer.alloc(8);
  size[0] = 0x01;
  size.writeUIntBE(payload.length, 2, 6);
  return Buffer.concat([Buffer.from(id), size, payload]);
};
const uintEl = (id: number[], value: number) => Buffer.concat([Buffer.from(id), Buffer.from([0x84]), u32(value)]);
const u32 = (value: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value);
  return b;
};

/**
 * A WebM as Chrome's MediaRecorder writes it (no Duration): EBML header (DocType webm), Tracks
 * with one audio track (or a video one), and clusters every 10 s up to `seconds`.
 */
export function webmFile(seconds: number, track: "audio" | "video" = "audio"): Buffer {
  const header = ebml([0x1a, 0x45, 0xdf, 0xa3], Buffer.from([0x42, 0x82, 0x84, ...Buffer.from("webm")]));
  const trackEntry = ebml(
    [0xae],
    Buffer.concat([Buffer.from([0xd7, 0x81, 0x01]), Buffer.from([0x83, 0x81, track === "audio" ? 0x02 : 0x01])]),
  );
  const tracks = ebml([0x16, 0x54, 0xae, 0x6b], trackEntry);
  const clusters: Buffer[] = [];
  for (let ms = 0; ms <= seconds * 1000; ms += 10_000) {
    clusters.push(ebml([0x1f, 0x43, 0xb6, 0x75], Buffer.concat([uintEl([0xe7], ms), Buffer.alloc(200, 0x55)])));
  }
  const last = seconds * 1000;
  if (last % 10_000 !== 0)
    clusters.push(ebml([0x1f, 0x43, 0xb6, 0x75], Buffer.concat([uintEl([0xe7], last), Buffer.alloc(50, 0x55)])));
  const segment = ebml([0x18, 0x53, 0x80, 0x67], Buffer.concat([tracks, ...clusters]));
  return Buffer.concat([header, segment]);
}

/** An Ogg Opus stream: the OpusHead page, then a last page whose granule is `seconds` at 48 kHz. */
export function oggOpusFile(seconds: number): Buffer {
  const page = (granule: number, payload: Buffer) => {
    const head = Buffer.alloc(27);
    head.write("OggS", 0, "ascii");
    head.writeUInt32LE(granule % 2 ** 32, 6);
    head.writeUInt32LE(Math.floor(granule / 2 ** 32), 10);
    head[26] = 1;
    return Buffer.concat([head, Buffer.from([payload.length]), payload]);
  };
  const opusHead = Buffer.concat([Buffer.from("OpusHead"), Buffer.from([1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0])]);
  return Buffer.concat([
    page(0, opusHead),
    page(0, Buffer.alloc(100, 1)),
    page(seconds * 48_000, Buffer.alloc(100, 2)),
  ]);
}

/** An M4A: ftyp, and a moov with mvhd (timescale 1000) and a sound (or video) handler. */
export function m4aFile(seconds: number, handler: "soun" | "vide" = "soun"): Buffer {
  const box = (type: string, payload: Buffer) => Buffer.concat([u32(8 + payload.length), Buffer.from(type), payload]);
  const mvhd = box(
    "mvhd",
    Buffer.concat([Buffer.alloc(4), Buffer.alloc(8), u32(1000), u32(seconds * 1000), Buffer.alloc(80)]),
  );
  const hdlr = box("hdlr", Buffer.concat([Buffer.alloc(8), Buffer.from(handler), Buffer.alloc(12)]));
  return Buffer.concat([box("ftyp", Buffer.from("M4A \0\0\0\0isomM4A ")), box("moov", Buffer.concat([mvhd, hdlr]))]);
}
