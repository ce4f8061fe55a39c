// The one session-cookie writer (API and page actions alike) and its reader.
import { describe, expect, it } from "vitest";
import { AUTH_COOKIE, readSessionCookie, sessionCookie } from "./sessions.ts";

describe("sessionCookie", () => {
  it("writes a browser-session cookie without Remember Me, a 30-day one with it", () => {
    const plain = sessionCookie({ token: "abc", remember: false }, false);
    expect(plain).toBe(`${AUTH_COOKIE}=abc; Path=/; HttpOnly; SameSite=Lax`);
    const remembered = sessionCookie({ token: "abc", remember: true }, true);
    expect(remembered).toMatch(
      new RegExp(
        `^${AUTH_COOKIE.replace(/\./g, "\\.")}=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000; Expires=[^;]+ GMT; Secure$`,
      ),
    );
  });

  it("clears the cookie for null", () => {
    expect(sessionCookie(null, true)).toBe(
      `${AUTH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure`,
    );
  });

  it("reads back what it writes, among other cookies", () => {
    const [pair] = sessionCookie({ token: "t0k-en_1", remember: false }, false).split(";");
    expect(readSessionCookie(`theme=dark; ${pair}; other=1`)).toBe("t0k-en_1");
    expect(readSessionCookie(`${AUTH_COOKIE}=Bearer%20xyz`)).toBe("xyz");
    for (const header of [null, "", "theme=dark", `${AUTH_COOKIE}=`, `${AUTH_COOKIE}=%E0%A4%A`])
      expect(readSessionCookie(header)).toBeUndefined();
  });
});
