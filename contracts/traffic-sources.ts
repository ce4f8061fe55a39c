// Traffic sources as the API and the pages show them.

export type TrafficSource = {
  id: number;
  legacyId: number | null;
  name: string;
  slug: string;
  description: string;
  website: string | null;
  logoUrl: string | null;
  featured: boolean;
  adFormats: string[];
  pricingModels: string[];
  minimumDeposit: number | null;
  geos: string[];
};
