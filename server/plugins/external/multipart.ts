// @fastify/multipart: the add-your-network form uploads a logo; only the routes of the
// scope that registers it read multipart, within these bounds.
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";

export async function registerMultipart(scope: FastifyInstance, options: { fileBytes: number }) {
  await scope.register(multipart, {
    // A file over the limit arrives truncated, so the form can answer with its own message.
    throwFileSizeLimit: false,
    limits: { fileSize: options.fileBytes, files: 1, fields: 60, fieldSize: 20 * 1024, parts: 62, headerPairs: 100 },
  });
}
