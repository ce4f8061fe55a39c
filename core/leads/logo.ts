// The add-your-network logo: judged by its bytes, never by the name or the
// declared type the uploader chose, and stored under a name the server picks.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { imageSize } from "image-size";
import { checkLogoDimensions, checkLogoNameAndSize, LOGO_MESSAGES } from "#contracts/leads.ts";

export type UploadedFile = { filename: string; bytes: Buffer; /** The upload went past the size limit and was cut. */ truncated: boolean };
export type CheckedLogo = { bytes: Buffer; extension: "png" | "jpg" | "gif" | "webp"; width: number; height: number };

// Raster formats a browser shows everywhere. SVG is refused: it can carry script.
const ACCEPTED_TYPES: Record<string, CheckedLogo["extension"]> = { png: "png", jpg: "jpg", gif: "gif", webp: "webp" };

/** Returns the checked logo, or the spec §5 message that refuses it. */
export function checkLogo(file: UploadedFile): CheckedLogo | { error: string } {
  const early = checkLogoNameAndSize(file.filename, file.truncated ? Number.POSITIVE_INFINITY : file.bytes.length);
  if (early) return { error: early };
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
  } catch {
    return { error: LOGO_MESSAGES.imageFile };
  }
  const extension = size.type ? ACCEPTED_TYPES[size.type] : undefined;
  if (!extension || !size.width || !size.height) return { error: LOGO_MESSAGES.imageFile };
  const wrongSize = checkLogoDimensions(size.width, size.height);
  if (wrongSize) return { error: wrongSize };
  return { bytes: file.bytes, extension, width: size.width, height: size.height };
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
