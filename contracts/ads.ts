// Ad slots and the house ads that fill them.

/**
 * A slot's size: header and footer 728x90, top 270x70, sidebar 250x250, small
 * sidebar 125x125, search bar 370x165. A slot with no ad shows an "Advertise here"
 * tile of the same size.
 */
export type AdSize = "728x90" | "270x70" | "250x250" | "125x125" | "370x165";

export type HouseAd = {
  id: number;
  size: AdSize;
  headline: string;
  body: string;
  imageUrl: string | null;
  targetUrl: string;
};

export type AdsBySize = Record<AdSize, HouseAd[]>;
