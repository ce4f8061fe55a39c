// Signed-in accounts for console tests: a fresh user with the given roles in its
// scope, and its Bearer header. Each sign-up comes from its own address so the
// sign-up and login limits stay out of the way.
import crypto from "node:crypto";
import { expect } from "vitest";
import { array, sql } from "#db/client.ts";
import type { SessionUser } from "#contracts/auth.ts";
import type { Role } from "#contracts/roles.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import type { TestApp } from "./app.ts";

const PASSWORD = "Plenty-of-Entropy-2009!";
let addressCounter = 0;

export async function signInWithRoles(t: TestApp, roles: readonly Role[], name = "Sam Staff") {
  const n = ++addressCounter;
  const remoteAddress = `10.77.${Math.floor(n / 250)}.${n % 250}`;
  const email = `staff${crypto.randomBytes(5).toString("hex")}@example.com`;
  const reg = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    remoteAddress,
    payload: { name, email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(reg.statusCode, reg.body).toBe(201);
  await t.db.query(sql`UPDATE users SET scope = ${array([...roles])}::text[] WHERE email_key = ${email}`);
  const login = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress,
    payload: { email, password: PASSWORD },
  });
  expect(login.statusCode, login.body).toBe(200);
  const { token, user } = login.json<{ token: string; user: SessionUser }>();
  return { user, email, headers: { authorization: `Bearer ${token}` } };
}

/** The session cookie a browser context needs to be signed in as `account` (from signInWithRoles). */
export const sessionCookie = (account: { headers: { authorization: string } }, baseUrl: string) => ({
  name: AUTH_COOKIE,
  value: account.headers.authorization.replace("Bearer ", ""),
  url: baseUrl,
});
