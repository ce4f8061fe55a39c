// The browser-side logo check of /add-your-network (the server repeats every
// check from the bytes; this one only saves a round trip).
import { checkLogoDimensions, checkLogoNameAndSize, LOGO_MESSAGES } from "#contracts/leads.ts";

/** Checks a chosen logo in the browser: name, size, then whether it decodes, then its size in pixels. */
export async function checkLogoInBrowser(file: File): Promise<string | undefined> {
  const early = checkLogoNameAndSize(file.name, file.size);
  if (early) return early;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return LOGO_MESSAGES.imageFile;
  }
  const { width, height } = bitmap;
  bitmap.close();
  return checkLogoDimensions(width, height);
}
