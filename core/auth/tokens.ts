// Opaque secrets (session and password-reset tokens): 256 random bits handed to
// the client once; only their SHA-256 is stored, so a database leak yields no
// usable token.
import crypto from "node:crypto";

export const newToken = () => crypto.randomBytes(32).toString("base64url");

// crypto.hash: one call, no Hash object (every signed-in page view hashes its session's token).
export const hashToken = (token: string) => crypto.hash("sha256", token, "hex");

export { hashIp } from "../privacy.ts";
