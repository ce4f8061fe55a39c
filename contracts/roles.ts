// Roles carried in the profile's `scope` (docs/product.md §6): an admin may do
// everything, a moderator works the moderation queues. The one rule every
// console page and /api/admin route checks on the server.
export const ROLES = ["admin", "moderator"] as const;
export type Role = (typeof ROLES)[number];

/** What a signed-in user without the role is told (403). */
export const FORBIDDEN = "You do not have permission to do this";

/** True when the user holds `role`; an admin holds every role. */
export function hasRole(user: { scope: readonly string[] } | null | undefined, role: Role): boolean {
  if (!user) return false;
  return user.scope.includes("admin") || user.scope.includes(role);
}
