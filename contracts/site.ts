// The site a request is for, as the pages show it (name, address, outside links).

export type SiteLinks = {
  dashboardUrl?: string;
  advertiserLoginUrl?: string;
  passwordRecoveryUrl?: string;
  blogUrl?: string;
  trainingVideosUrl?: string;
  callTrackingUrl?: string;
  facebookUrl?: string;
  youtubeUrl?: string;
  twitterUrl?: string;
};

export type Site = { id: string; name: string; publicUrl: string | null; links: SiteLinks };
