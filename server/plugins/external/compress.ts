// @fastify/compress: pages and search answers are text that shrinks tenfold; tiny bodies are sent as they are.
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, { global: true, threshold: 1024 });
}
