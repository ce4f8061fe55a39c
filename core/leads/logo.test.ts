// The logo check decodes what it is given and keeps only the re-encoded pixels:
// polyglots lose their payload, metadata is dropped, bombs and broken files are
// refused with the spec's "image file" message before they cost memory.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { LOGO_MESSAGES } from "#contracts/leads.ts";
import {
  EXIF_SECRET,
  GOOD_LOGO,
  makeGif,
  makeGifJsPolyglot,
  makeJpegWithExif,
  makePng,
  makePngBomb,
  makeWebp,
  PNG_HTML_POLYGLOT,
  SVG_LOGO,
  TEXT_AS_PNG,
  WRONG_SIZE_LOGO,
  webpHeaderOnly,
} from "../../tests/fixtures/images.ts";
import { checkLogo, LOGO_MAX_FRAMES, LOGO_MAX_INPUT_PIXELS, type CheckedLogo } from "./logo.ts";

const upload = (bytes: Buffer, filename = "logo.png") => checkLogo({ filename, bytes, truncated: false });

async function accepted(bytes: Buffer, filename?: string): Promise<CheckedLogo> {
  const result = await upload(bytes, filename);
  if ("error" in result) throw new Error(`refused: ${result.error}`);
  return result;
}

/** What the stored bytes really are, read back by the decoder. */
const reread = (bytes: Buffer) => sharp(bytes, { animated: true }).metadata();

describe("checkLogo", () => {
  it("accepts a 200 × 200 PNG and stores a re-encoded PNG of the same size", async () => {
    const logo = await accepted(GOOD_LOGO());
    expect(logo).toMatchObject({ extension: "png", width: 200, height: 200, frames: 1 });
    const meta = await reread(logo.bytes);
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 200, 200]);
  });

  it("names the stored file after its bytes, not after the uploader's name", async () => {
    expect((await accepted(GOOD_LOGO(), "logo.jpg")).extension).toBe("png");
    expect((await accepted(await makeWebp(), "logo.png")).extension).toBe("webp");
    expect((await accepted(await makeGif(), "logo.webp")).extension).toBe("gif");
    const jpeg = await accepted(await makeJpegWithExif(), "logo.gif");
    expect(jpeg.extension).toBe("jpg");
    expect((await reread(jpeg.bytes)).format).toBe("jpeg");
  });

  it("PNG/HTML polyglot: the bytes after IEND are not stored", async () => {
    const input = PNG_HTML_POLYGLOT();
    expect(input.includes("<script>")).toBe(true);
    const logo = await accepted(input);
    expect(logo.bytes.includes("<script")).toBe(false);
    expect(logo.bytes.includes("alert")).toBe(false);
    expect(logo.bytes.subarray(-8).toString("latin1", 0, 4)).toBe("IEND");
  });

  it("GIF/JS polyglot: neither the comment nor the trailing script is stored", async () => {
    const input = await makeGifJsPolyglot();
    expect((await sharp(input).metadata()).format).toBe("gif");
    const logo = await accepted(input);
    expect(logo.extension).toBe("gif");
    expect(logo.bytes.includes("alert")).toBe(false);
    expect(logo.bytes.includes("<script")).toBe(false);
    expect(logo.bytes.at(-1)).toBe(0x3b); // ends at the GIF trailer
  });

  it("drops EXIF, GPS and ICC metadata of a JPEG", async () => {
    const input = await makeJpegWithExif();
    const before = await sharp(input).metadata();
    expect(before.exif).toBeDefined();
    expect(before.icc).toBeDefined();
    expect(input.includes(EXIF_SECRET)).toBe(true);
    const logo = await accepted(input, "logo.jpg");
    const after = await reread(logo.bytes);
    expect(after.exif).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(logo.bytes.includes(EXIF_SECRET)).toBe(false);
  });

  it("drops PNG text chunks", async () => {
    const input = makePng(200, 200, { padBytes: 2000 });
    expect(input.includes("Comment")).toBe(true);
    const logo = await accepted(input);
    expect(logo.bytes.includes("Comment")).toBe(false);
    expect(logo.bytes.length).toBeLessThan(input.length);
  });

  it("refuses a decompression bomb (20000 × 20000 in a few KB) quickly, without decoding it", async () => {
    const bomb = makePngBomb();
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(20_000 * 20_000).toBeGreaterThan(LOGO_MAX_INPUT_PIXELS);
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    expect(await upload(bomb)).toEqual({ error: LOGO_MESSAGES.imageFile });
    expect(performance.now() - started).toBeLessThan(1000);
    // Decoding it would take 400 MB (one byte per pixel); refusing it takes next to nothing.
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
  });

  it("refuses by our pixel limit, not only by libvips' default one (268 megapixels)", async () => {
    // 100 megapixels: under sharp's default limit, far over ours.
    expect(await upload(makePngBomb(10_000, 10_000))).toEqual({ error: LOGO_MESSAGES.imageFile });
    // Just over ours (2,000,001 px), as a still image.
    expect(await upload(makePngBomb(LOGO_MAX_INPUT_PIXELS + 1, 1))).toEqual({ error: LOGO_MESSAGES.imageFile });
  });

  it("measures a still image under the pixel limit and answers the dimension rule", async () => {
    expect(await upload(WRONG_SIZE_LOGO())).toEqual({ error: LOGO_MESSAGES.dimensions });
    expect(
      await upload(
        await sharp({ create: { width: 1000, height: 1000, channels: 3, background: "#000" } })
          .png()
          .toBuffer(),
      ),
    ).toEqual({ error: LOGO_MESSAGES.dimensions });
  });

  it("refuses what does not decode: a 30-byte WebP header, a cut PNG, text, SVG, TIFF", async () => {
    const header = await webpHeaderOnly();
    expect(header.length).toBe(30);
    const cut = GOOD_LOGO().subarray(0, Math.floor(GOOD_LOGO().length / 2));
    const tiff = await sharp({ create: { width: 200, height: 200, channels: 3, background: "#000" } })
      .tiff()
      .toBuffer();
    for (const [label, bytes] of [
      ["webp header", header],
      ["cut png", cut],
      ["text", TEXT_AS_PNG()],
      ["svg", SVG_LOGO()],
      ["tiff", tiff],
    ] as const) {
      expect(await upload(bytes), label).toEqual({ error: LOGO_MESSAGES.imageFile });
    }
  });

  it("keeps an animated GIF's frames, and refuses more than LOGO_MAX_FRAMES", async () => {
    const logo = await accepted(await makeGif(200, 200, 12), "logo.gif");
    expect(logo).toMatchObject({ extension: "gif", width: 200, height: 200, frames: 12 });
    const meta = await reread(logo.bytes);
    expect([meta.pages, meta.pageHeight, meta.loop]).toEqual([12, 200, 0]);
    expect(meta.delay).toEqual((await reread(await makeGif(200, 200, 12))).delay);

    expect(await upload(await makeGif(200, 200, LOGO_MAX_FRAMES + 1), "logo.gif")).toEqual({
      error: LOGO_MESSAGES.imageFile,
    });
    // Many tiny frames stay under the pixel limit: the frame count alone refuses them.
    expect(await upload(await makeGif(2, 2, LOGO_MAX_FRAMES + 10), "logo.gif")).toEqual({
      error: LOGO_MESSAGES.imageFile,
    });
    // Frames of the wrong size are measured by their frame, not by the strip they decode into.
    expect(await upload(await makeGif(100, 100, 4), "logo.gif")).toEqual({ error: LOGO_MESSAGES.dimensions });
  });

  it("keeps the name and size rules ahead of decoding", async () => {
    expect(await upload(GOOD_LOGO(), "logo.svg")).toEqual({ error: LOGO_MESSAGES.extension });
    expect(await checkLogo({ filename: "logo.png", bytes: GOOD_LOGO(), truncated: true })).toEqual({
      error: LOGO_MESSAGES.size,
    });
  });
});
