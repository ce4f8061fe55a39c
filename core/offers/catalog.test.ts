// The sidebar's featured networks: the candidates are cached, the pick is made per
// page view, so every featured network still gets its turn and none shows twice.
import { describe, expect, it } from "vitest";
import type { FeaturedNetwork } from "#contracts/networks.ts";
import { pickFeaturedNetworks } from "./catalog.ts";

const candidates: FeaturedNetwork[] = Array.from({ length: 12 }, (_, i) => ({
  id: i + 1,
  slug: `network-${i + 1}`,
  name: `Network ${i + 1}`,
  logoUrl: null,
  avgRating: 4,
  offerCount: 10,
}));

describe("pickFeaturedNetworks", () => {
  it("shows five different networks of the candidates", () => {
    const picked = pickFeaturedNetworks(candidates);
    expect(picked).toHaveLength(5);
    expect(new Set(picked.map((n) => n.id)).size).toBe(5);
    for (const n of picked) expect(candidates).toContain(n);
  });

  it("shows every candidate when there are fewer than five, and leaves the cached list as it was", () => {
    const few = candidates.slice(0, 3);
    expect(
      pickFeaturedNetworks(few)
        .map((n) => n.id)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(few.map((n) => n.id)).toEqual([1, 2, 3]);
  });

  it("gives every candidate its turn at the top, about equally often", () => {
    const first = new Map<number, number>();
    for (let i = 0; i < 6000; i++) {
      const [top] = pickFeaturedNetworks(candidates);
      first.set(top.id, (first.get(top.id) ?? 0) + 1);
    }
    expect(first.size).toBe(candidates.length);
    // 500 expected each; a biased shuffle (e.g. sort by random) or a fixed order falls outside.
    for (const count of first.values()) expect(count).toBeGreaterThan(350);
  });
});
