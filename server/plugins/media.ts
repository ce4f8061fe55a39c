// Public media: approved network logos at /media/network-logos/<uuid>.<ext>
// (core/submissions/media.ts). Each name is random and never reused, so an
// answer is cached for a year as immutable. Only a name of exactly that form is
// looked up, in that one directory: no path reaches the file system.
import type { FastifyInstance } from "fastify";
import { notFound } from "#core/errors.ts";
import { PUBLIC_LOGO_PREFIX, readPublicLogo } from "#core/submissions/media.ts";

export function registerMedia(app: FastifyInstance, dataDir: string) {
  app.get<{ Params: { file: string } }>(`${PUBLIC_LOGO_PREFIX}:file`, async (request, reply) => {
    const logo = await readPublicLogo(dataDir, request.params.file);
    if (!logo) throw notFound();
    return reply.type(logo.contentType).header("cache-control", "public, max-age=31536000, immutable").send(logo.bytes);
  });
}
