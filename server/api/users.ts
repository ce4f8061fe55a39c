// The current user's profile (docs/product.md §7: fetched after login and on start).
import type { FastifyInstance } from "fastify";
import { loggedInUserOr401 } from "./auth.ts";

export async function userRoutes(api: FastifyInstance) {
  api.get("/users/profile", async (request) => ({ user: loggedInUserOr401(request) }));
}
