// The add-your-network logo: judged by its bytes, never by the name or the
// declared type the uploader chose, and stored under a name the server picks.
//
// The bytes are decoded by a real image library (sharp/libvips, see
// docs/decisions/0001-sharp-for-uploaded-images.md) and only the re-encoded
// pixels are stored: whatever rode along in the file (a script after the PNG's
// IEND, a GIF comment, EXIF/XMP/ICC metadata) is gone. A file that does not
// decode completely, or would decode into more pixels than a logo can have, is
// "not a valid image".
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp, { type Sharp, type SharpOptions } from "sharp";
import { checkLogoDimensions, checkLogoNameAndSize, LOGO_MESSAGES, LOGO_RULES } from "#contracts/leads.ts";

export type UploadedFile = {
  filename: string;
  bytes: Buffer;
  /** The upload went past the size limit and was cut. */ truncated: boolean;
};
export type CheckedLogo = {
  /** The re-encoded image: what gets stored. */
  bytes: Buffer;
  extension: "png" | "jpg" | "gif" | "webp";
  width: number;
  height: number;
  /** 1 for a still image. */
  frames: number;
};

/** An animated logo may have this many frames (5 s at 10 fps); more is refused before decoding. */
export const LOGO_MAX_FRAMES = 50;
/**
 * Pixels libvips may decode for one upload, checked against the header before any pixel is inflated:
 * the largest acceptable logo (200 × 200, LOGO_MAX_FRAMES frames) = 2,000,000 px, about 8 MB as RGBA.
 * A still image up to about 1414 × 1414 is still measured (and told the dimension rule); a larger
 * header (a 20000 × 20000 PNG that deflates to a few KB) is refused as not a valid image.
 */
export const LOGO_MAX_INPUT_PIXELS = LOGO_RULES.width * LOGO_RULES.height * LOGO_MAX_FRAMES;
/** Decoding a logo within the pixel limit takes milliseconds; a stuck decode is refused. */
const DECODE_TIMEOUT_SECONDS = 10;

type Family = CheckedLogo["extension"];

// Raster formats a browser shows everywhere, recognised by their signatures so that only these
// bytes ever reach a decoder (libvips would also read SVG, TIFF, HEIF, PDF… if asked). SVG is refused: it can carry script.
function sniff(b: Buffer): Family | undefined {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString("latin1", 0, 6))) return "gif";
  if (b.length >= 12 && b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP") return "webp";
  return undefined;
}

/** libvips' name of each accepted format. */
const VIPS_FORMAT: Record<Family, string> = { png: "png", jpg: "jpeg", gif: "gif", webp: "webp" };

// Each family is re-encoded into itself, so the stored extension always matches the stored bytes.
// PNG and WebP losslessly; GIF keeps its palette and animation; JPEG at a quality that hides the second pass.
function encode(image: Sharp, family: Family): Sharp {
  switch (family) {
    case "png":
      return image.png({ compressionLevel: 9 });
    case "jpg":
      return image.jpeg({ quality: 90 });
    case "gif":
      return image.gif();
    case "webp":
      return image.webp({ lossless: true });
  }
}

const decoderOptions = (animated: boolean): SharpOptions => ({
  limitInputPixels: LOGO_MAX_INPUT_PIXELS,
  // Refuse truncated or corrupt pixel data instead of storing a half-decoded image.
  failOn: "warning",
  animated,
});

/** Returns the checked, re-encoded logo, or the docs/product.md §5 message that refuses it. */
export async function checkLogo(file: UploadedFile): Promise<CheckedLogo | { error: string }> {
  const early = checkLogoNameAndSize(file.filename, file.truncated ? Number.POSITIVE_INFINITY : file.bytes.length);
  if (early) return { error: early };
  const family = sniff(file.bytes);
  if (!family) return { error: LOGO_MESSAGES.imageFile };
  try {
    // The header: format, size, frame count. Throws past the pixel limit without inflating anything.
    const meta = await sharp(file.bytes, decoderOptions(true)).metadata();
    if (meta.format !== VIPS_FORMAT[family]) return { error: LOGO_MESSAGES.imageFile };
    const frames = meta.pages ?? 1;
    if (frames < 1 || frames > LOGO_MAX_FRAMES) return { error: LOGO_MESSAGES.imageFile };
    const still = frames === 1;
    const declared = still ? meta.autoOrient : { width: meta.width, height: meta.pageHeight ?? meta.height };
    const wrongSize = checkLogoDimensions(declared.width, declared.height);
    if (wrongSize) return { error: wrongSize };

    // The whole image, decoded and written again. No metadata is kept (sharp strips EXIF, XMP, IPTC,
    // ICC and PNG text unless asked; colours are converted to sRGB); a still is turned upright first.
    const image = sharp(file.bytes, { ...decoderOptions(!still), autoOrient: still }).timeout({
      seconds: DECODE_TIMEOUT_SECONDS,
    });
    // libvips decodes to the size the header declared, so the checks above hold for what is stored.
    const { data, info } = await encode(image, family).toBuffer({ resolveWithObject: true });
    return {
      bytes: data,
      extension: family,
      width: info.width,
      height: info.pageHeight ?? info.height,
      frames: info.pages ?? 1,
    };
  } catch {
    // Corrupt, truncated, over the pixel limit, unsupported: libvips' reason is not the uploader's business.
    return { error: LOGO_MESSAGES.imageFile };
  }
}

/** Writes the logo under DATA_DIR/uploads/network-logos with a random name; returns its path relative to DATA_DIR. */
export async function storeLogo(dataDir: string, logo: CheckedLogo): Promise<string> {
  const relative = path.posix.join("uploads", "network-logos", `${crypto.randomUUID()}.${logo.extension}`);
  const target = path.join(dataDir, relative);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, logo.bytes, { flag: "wx", mode: 0o640 });
  return relative;
}

export async function removeStoredFile(dataDir: string, relative: string): Promise<void> {
  await fs.rm(path.join(dataDir, relative), { force: true });
}
