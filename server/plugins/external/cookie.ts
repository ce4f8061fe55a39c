// @fastify/cookie: the session cookie is read on every request and written at login and logout.
import cookie from "@fastify/cookie";
import type { FastifyInstance } from "fastify";

export async function registerCookies(app: FastifyInstance) {
  await app.register(cookie);
}
