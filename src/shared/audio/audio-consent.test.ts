import { describe, expect, it } from "vitest";
import { m4aFile, oggOpusFile, wavFile, webmFile } from "../../../tests/helpers/audio-files.js";
import {
  AUDIO_MAX_BYTES,
  audioDurationLabel,
  audioEvidenceLine,
  checkAudio,
  measureAudioMs,
  readAudioEvidence,
  sniffAudio,
} from "./audio-consent.js";

describe("sniffAudio (decision 069)", () => {
  it("recognises WebM, Ogg, MP4/M4A and WAV by their bytes", () => {
    expect(sniffAudio(webmFile(12))?.mime).toBe("audio/webm");
    expect(sniffAudio(oggOpusFile(12))?.mime).toBe("audio/ogg");
    expect(sniffAudio(m4aFile(12))).toMatchObject({ mime: "audio/mp4", ext: "m4a" });
    expect(sniffAudio(wavFile(2))?.mime).toBe("audio/wav");
  });

  it("refuses anything else, video containers included", () => {
    const pdf = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n");
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
    const html = Buffer.from("<html><script>alert(1)</script></html>");
    for (const bytes of [
      pdf,
      png,
      html,
      Buffer.alloc(0),
      Buffer.from("OggS"),
      webmFile(5, "video"),
      m4aFile(5, "vide"),
    ])
      expect(sniffAudio(bytes)).toBeNull();
    // Matroska (not WebM) and a RIFF that is not WAVE.
    const avi = Buffer.concat([Buffer.from("RIFF\0\0\0\0AVI LIST"), Buffer.alloc(40)]);
    expect(sniffAudio(avi)).toBeNull();
  });
});

describe("measureAudioMs and checkAudio", () => {
  it("reads the length each container states or implies", () => {
    expect(measureAudioMs(wavFile(2), "wav")).toEqual({ ms: 2000, exact: true });
    expect(measureAudioMs(oggOpusFile(12), "ogg")).toEqual({ ms: 12_000, exact: true });
    expect(measureAudioMs(m4aFile(12), "mp4")).toEqual({ ms: 12_000, exact: true });
    expect(measureAudioMs(webmFile(25), "webm")).toEqual({ ms: 25_000, exact: false });
  });

  it("keeps the container's length, or the larger of the recorder's clock and the container's lower bound", () => {
    expect(checkAudio(oggOpusFile(12), 11_000)).toMatchObject({ ok: true, duracao_ms: 12_000 });
    expect(checkAudio(webmFile(20), 22_500)).toMatchObject({ ok: true, duracao_ms: 22_500 });
    expect(checkAudio(webmFile(20), 0)).toMatchObject({ ok: true, duracao_ms: 20_000 });
  });

  it("refuses what is not audio, over 3 MB, over 3 minutes by either clock, or under a second", () => {
    expect(checkAudio(Buffer.from("não é áudio, é texto qualquer"), 5000)).toEqual({ ok: false, reason: "not_audio" });
    expect(checkAudio(Buffer.alloc(AUDIO_MAX_BYTES + 1, 0x55), 5000)).toEqual({ ok: false, reason: "too_big" });
    expect(checkAudio(oggOpusFile(200), 10_000)).toEqual({ ok: false, reason: "too_long" });
    expect(checkAudio(webmFile(200), 10_000)).toEqual({ ok: false, reason: "too_long" });
    expect(checkAudio(webmFile(10), 190_000)).toEqual({ ok: false, reason: "too_long" });
    expect(checkAudio(oggOpusFile(180), 180_000)).toMatchObject({ ok: true, duracao_ms: 180_000 });
    expect(checkAudio(wavFile(0.5), 500)).toEqual({ ok: false, reason: "too_short" });
  });
});

describe("the registry's words", () => {
  it("prints the hash and the length, or that it was asked and not recorded", () => {
    expect(audioDurationLabel(12_400)).toBe("0 min 12 s");
    expect(audioDurationLabel(125_000)).toBe("2 min 5 s");
    const sha = "a".repeat(64);
    expect(audioEvidenceLine({ pedido: true, gravado: true, sha256: sha, duracao_ms: 12_000 })).toBe(
      `Áudio do aceite: SHA-256 ${sha}, 0 min 12 s.`,
    );
    expect(audioEvidenceLine({ pedido: true, gravado: false })).toMatch(/não gravado/);
    expect(readAudioEvidence({ pedido: true, gravado: true, sha256: "x", duracao_ms: 3 })).toEqual({
      pedido: true,
      gravado: true,
      duracao_ms: 3,
    });
    expect(readAudioEvidence(null)).toBeNull();
    expect(readAudioEvidence({ gravado: true })).toBeNull();
  });
});
