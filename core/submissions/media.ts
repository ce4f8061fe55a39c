// Logo files of the submission queue. An upload stays private under
// DATA_DIR/uploads/network-logos (moderators see it through the console); an
// approved one is copied under DATA_DIR/media/network-logos with a new random
// name and served from /media/network-logos/<name>: a name that is never reused,
// so the address can be cached for good. Rejected uploads never become public.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** Where public network logos are served. */
export const PUBLIC_LOGO_PREFIX = "/media/network-logos/";

const EXTENSION_TYPES = { png: "image/png", jpg: "image/jpeg", gif: "image/gif", webp: "image/webp" } as const;
type Extension = keyof typeof EXTENSION_TYPES;

/** A stored logo's name: the server's random UUID and one of the extensions it writes (core/leads/logo.ts). */
const LOGO_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|gif|webp)$/;
/** Relative to DATA_DIR, as submission rows name their logo (core/leads/logo.ts). */
const UPLOAD_DIR = "uploads/network-logos";
const PUBLIC_DIR = "media/network-logos";

export type LogoFile = { bytes: Buffer; contentType: string };

/** The file `name` under `dir`, or null when the name is not exactly a stored logo's or the file is gone. */
async function readLogo(dir: string, name: string): Promise<LogoFile | null> {
  const m = LOGO_NAME.exec(name);
  if (!m) return null;
  try {
    const bytes = await fs.readFile(path.join(dir, name));
    return { bytes, contentType: EXTENSION_TYPES[m[1] as Extension] };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** The name of the uploaded logo a submission row names, or undefined when it names none of ours. */
const uploadName = (logoPath: string | null) =>
  logoPath && path.posix.dirname(logoPath) === UPLOAD_DIR && LOGO_NAME.test(path.posix.basename(logoPath))
    ? path.posix.basename(logoPath)
    : undefined;

/** The uploaded logo a submission row names (its path relative to DATA_DIR), or null. */
export async function readUploadedLogo(dataDir: string, logoPath: string | null): Promise<LogoFile | null> {
  const name = uploadName(logoPath);
  return name ? readLogo(path.join(dataDir, UPLOAD_DIR), name) : null;
}

/** A public logo by the file name of its address; null for any other name. */
export function readPublicLogo(dataDir: string, name: string): Promise<LogoFile | null> {
  return readLogo(path.join(dataDir, PUBLIC_DIR), name);
}

/**
 * Copies an uploaded logo to the public directory under a new random name; answers its address, or
 * null when the submission has no readable logo (the listing then keeps the logo it has).
 */
export async function publishLogo(dataDir: string, logoPath: string | null): Promise<string | null> {
  const upload = uploadName(logoPath);
  if (!upload) return null;
  const name = `${crypto.randomUUID()}${path.posix.extname(upload)}`;
  const dir = path.join(dataDir, PUBLIC_DIR);
  await fs.mkdir(dir, { recursive: true });
  try {
    await fs.copyFile(path.join(dataDir, UPLOAD_DIR, upload), path.join(dir, name), fs.constants.COPYFILE_EXCL);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  return `${PUBLIC_LOGO_PREFIX}${name}`;
}

/** Removes a copy made by publishLogo (its decision was not kept). */
export async function unpublishLogo(dataDir: string, url: string | null): Promise<void> {
  const name = url?.startsWith(PUBLIC_LOGO_PREFIX) ? url.slice(PUBLIC_LOGO_PREFIX.length) : "";
  if (LOGO_NAME.test(name)) await fs.rm(path.join(dataDir, PUBLIC_DIR, name), { force: true });
}
