// Word lists and tables behind the demo data (db/seed/demo.ts). Everything is
// invented: brand, network and traffic-source names are built from these parts.

export type PayoutType = "CPA" | "CPL" | "CPS" | "CPI" | "CPC" | "pay-per-call" | "revshare";

/** [type, weight, min, max]: amounts in USD, or percent for CPS/revshare paid as a share. */
export type PayoutRule = readonly [PayoutType, number, number, number];

export type Theme = "health" | "dating" | "gambling" | "finance" | "trading" | "shopping" | "software" | "games" | "media" | "services";

export type Vertical = {
  name: string;
  top?: boolean;
  /** Relative share of products in this vertical. */
  weight: number;
  theme: Theme;
  /** Product name forms; {b} is the brand. */
  templates: readonly string[];
  /** What the product is, for descriptions. */
  blurb: string;
  payouts: readonly PayoutRule[];
  /** Verticals an offer is sometimes also filed under. */
  related?: readonly string[];
  /** Chance that an offer is mobile. */
  mobile?: number;
  /** Mostly sold in the United States (and Canada). */
  usFocused?: boolean;
};

// Payout profiles shared by several verticals.
const P = {
  trial: [["CPA", 70, 25, 90], ["CPS", 20, 20, 45], ["CPL", 10, 2, 9]],
  dating: [["CPL", 50, 1.5, 8], ["CPA", 35, 18, 80], ["revshare", 15, 40, 65]],
  gambling: [["CPA", 55, 60, 350], ["revshare", 30, 25, 50], ["CPL", 15, 5, 25]],
  loans: [["CPL", 55, 6, 60], ["CPA", 35, 40, 250], ["pay-per-call", 10, 30, 90]],
  insurance: [["CPL", 60, 8, 40], ["pay-per-call", 22, 25, 110], ["CPC", 18, 1.5, 12]],
  homeLeads: [["CPL", 80, 15, 110], ["pay-per-call", 20, 35, 160]],
  trading: [["CPA", 60, 150, 700], ["CPL", 25, 10, 60], ["revshare", 15, 30, 50]],
  shop: [["CPS", 65, 4, 20], ["CPA", 25, 5, 40], ["CPC", 10, 0.1, 1]],
  apps: [["CPI", 65, 0.4, 4.5], ["CPA", 25, 1, 12], ["CPC", 10, 0.05, 0.6]],
  software: [["CPS", 50, 30, 75], ["CPA", 35, 10, 60], ["CPI", 15, 0.8, 3]],
  soi: [["CPL", 75, 0.8, 6], ["CPA", 15, 2, 12], ["CPC", 10, 0.1, 0.8]],
  calls: [["pay-per-call", 80, 15, 150], ["CPL", 20, 5, 40]],
  subscription: [["CPA", 60, 5, 45], ["CPS", 30, 10, 30], ["CPL", 10, 1, 5]],
  education: [["CPL", 70, 10, 60], ["CPA", 30, 20, 120]],
  travel: [["CPS", 60, 3, 8], ["CPA", 30, 5, 40], ["CPC", 10, 0.1, 1.5]],
} satisfies Record<string, readonly PayoutRule[]>;

export const VERTICALS: readonly Vertical[] = [
  { name: "Nutra", top: true, weight: 9, theme: "health", blurb: "a natural dietary supplement", payouts: P.trial, related: ["Health & Beauty"],
    templates: ["{b}", "{b} - Free Trial", "{b} Capsules - Straight Sale", "{b} Gummies", "{b} Immune Support", "{b} Joint Relief - Trial", "{b} CBD Oil"] },
  { name: "Keto/Diet", top: true, weight: 6, theme: "health", blurb: "a keto and weight-loss formula", payouts: P.trial, related: ["Nutra", "Health & Beauty"],
    templates: ["{b} Keto", "{b} Pro", "{b} Keto ACV Gummies", "{b} Diet - Trial", "{b} Slim - Straight Sale", "{b} Fat Burner"] },
  { name: "Skin Care", weight: 4, theme: "health", blurb: "an anti-aging skin care line", payouts: P.trial, related: ["Health & Beauty"],
    templates: ["{b} Anti-Aging Cream - Trial", "{b} Serum", "{b} Skin Care Kit", "{b} Eye Cream", "{b} Collagen"] },
  { name: "Male Enhancement", weight: 3, theme: "health", blurb: "a male performance supplement", payouts: P.trial, related: ["Nutra"],
    templates: ["{b} Male Enhancement - Trial", "{b} XL", "{b} Testo Booster", "{b} Performance - Straight Sale"] },
  { name: "Dating", top: true, weight: 7, theme: "dating", blurb: "an online dating service", payouts: P.dating, mobile: 0.4,
    templates: ["{b} - SOI", "{b} - DOI", "{b} Dating - Free Signup", "{b} Singles - Mobile", "{b} 40+ Dating", "{b} Chat - PPL"] },
  { name: "Adult", weight: 4, theme: "dating", blurb: "an adult entertainment site (18+)", payouts: P.dating, related: ["Dating"], mobile: 0.4,
    templates: ["{b} Live Cams - SOI", "{b} Cams - Free Signup", "{b} Premium - PPS", "{b} Hookups - DOI"] },
  { name: "Casino", top: true, weight: 7, theme: "gambling", blurb: "an online casino with slots and live tables", payouts: P.gambling,
    templates: ["{b} Casino - First Deposit", "{b} Casino - Registration", "{b} Casino - RevShare", "{b} Slots - FTD", "{b} Casino - No Deposit Bonus"] },
  { name: "Sports Betting", top: true, weight: 5, theme: "gambling", blurb: "a licensed sportsbook", payouts: P.gambling, related: ["Casino"],
    templates: ["{b} Sportsbook - FTD", "{b} Bet - Registration", "{b} Sports - RevShare", "{b} Odds - Hybrid"] },
  { name: "Sweepstakes", top: true, weight: 6, theme: "services", blurb: "a prize giveaway", payouts: [["CPL", 80, 0.8, 4.5], ["CPA", 20, 2, 15]], related: ["Lead Gen"], mobile: 0.5,
    templates: ["{b} - Win an iPhone 16", "{b} - $1000 Gift Card", "{b} Sweepstakes - SOI", "{b} - Win a PS5", "{b} Rewards - Cash Prize"] },
  { name: "Finance", top: true, weight: 5, theme: "finance", blurb: "a personal finance product", payouts: P.loans,
    templates: ["{b} Personal Finance", "{b} Budget App - Install", "{b} Savings Account - Open", "{b} Investing - Signup", "{b} Credit Card Application"] },
  { name: "Loans", weight: 4, theme: "finance", blurb: "an online lender marketplace", payouts: P.loans, related: ["Finance"], usFocused: true,
    templates: ["{b} Payday Loans", "{b} Personal Loans - Lead", "{b} Installment Loans", "{b} Loans - Funded", "{b} Cash Advance"] },
  { name: "Insurance", top: true, weight: 4, theme: "finance", blurb: "an insurance comparison service", payouts: P.insurance, related: ["Finance"], usFocused: true,
    templates: ["{b} Life Insurance Quote", "{b} Home Insurance Quote", "{b} Health Insurance - Calls", "{b} Insurance Lead"] },
  { name: "Auto Insurance", weight: 3, theme: "finance", blurb: "a car insurance quote service", payouts: P.insurance, related: ["Insurance"], usFocused: true,
    templates: ["{b} Auto Insurance Quote", "{b} Car Insurance - Calls", "{b} Auto Insurance - Click", "{b} Drive Insurance - Lead"] },
  { name: "Crypto", top: true, weight: 4, theme: "trading", blurb: "a cryptocurrency trading platform", payouts: P.trading, related: ["Finance"],
    templates: ["{b} - Crypto Trading", "{b} Crypto Exchange - Signup", "{b} Wallet - Install", "{b} Trading Bot - CPA"] },
  { name: "Forex", weight: 3, theme: "trading", blurb: "a forex and CFD broker", payouts: P.trading, related: ["Finance"],
    templates: ["{b} Forex - FTD", "{b} Markets - CPL", "{b} Trading - Registration", "{b} CFD - FTD"] },
  { name: "E-commerce", top: true, weight: 5, theme: "shopping", blurb: "an online store", payouts: P.shop,
    templates: ["{b} Store", "{b} Online Shop - Sale", "{b} Flash Deals", "{b} Marketplace - First Order"] },
  { name: "Mobile Apps", top: true, weight: 5, theme: "software", blurb: "a mobile app", payouts: P.apps, mobile: 0.95,
    templates: ["{b} App - Install", "{b} - Android Install", "{b} - iOS Install", "{b} App - Registration"] },
  { name: "Gaming", weight: 4, theme: "games", blurb: "a free-to-play game", payouts: P.apps, related: ["Mobile Apps"], mobile: 0.8,
    templates: ["{b} - Android", "{b} - iOS", "{b} Online - Registration", "{b} - Level 10", "{b} Legends - Install"] },
  { name: "Education", weight: 2, theme: "services", blurb: "an online education provider", payouts: P.education, related: ["Lead Gen"],
    templates: ["{b} Online Degree - Lead", "{b} Academy - Signup", "{b} Language Course - Trial", "{b} Coding Bootcamp - Lead"] },
  { name: "Health & Beauty", weight: 3, theme: "health", blurb: "a health and beauty product", payouts: P.trial, related: ["Nutra", "Skin Care"],
    templates: ["{b} Teeth Whitening - Trial", "{b} Hair Growth", "{b} Beauty Box", "{b} Hearing Aid - Lead", "{b} Wellness"] },
  { name: "Home Services", weight: 2, theme: "services", blurb: "a home improvement lead program", payouts: P.homeLeads, related: ["Lead Gen"], usFocused: true,
    templates: ["{b} Home Warranty - Lead", "{b} Roofing Quote", "{b} Home Security - Calls", "{b} Pest Control - Lead", "{b} Windows Quote"] },
  { name: "Solar", weight: 2, theme: "services", blurb: "a residential solar installer network", payouts: P.homeLeads, related: ["Home Services"], usFocused: true,
    templates: ["{b} Solar Quote", "{b} Solar Savings - Lead", "{b} Solar - Calls", "{b} Energy - Homeowners"] },
  { name: "Legal", weight: 1.5, theme: "services", blurb: "an attorney referral service", payouts: P.homeLeads, related: ["Lead Gen"], usFocused: true,
    templates: ["{b} Personal Injury - Calls", "{b} Legal Help - Lead", "{b} Mass Tort - Lead", "{b} Attorney Match"] },
  { name: "Travel", weight: 2, theme: "shopping", blurb: "an online travel booking site", payouts: P.travel,
    templates: ["{b} Hotel Booking", "{b} Flights - Sale", "{b} Travel Deals", "{b} Car Rental - Booking", "{b} Cruises - Lead"] },
  { name: "VPN/Software", weight: 3, theme: "software", blurb: "a privacy and utility software suite", payouts: P.software, mobile: 0.35,
    templates: ["{b} VPN - Sale", "{b} VPN - Trial", "{b} PC Cleaner - Sale", "{b} Password Manager - Trial", "{b} Driver Updater"] },
  { name: "Antivirus", weight: 2, theme: "software", blurb: "an antivirus and security suite", payouts: P.software, related: ["VPN/Software"], mobile: 0.35,
    templates: ["{b} Antivirus - Sale", "{b} Total Security - Trial", "{b} Mobile Security - Install", "{b} Internet Security"] },
  { name: "Survey", weight: 3, theme: "services", blurb: "a paid survey panel", payouts: P.soi, related: ["Lead Gen"], mobile: 0.5,
    templates: ["{b} Surveys - SOI", "{b} Paid Surveys - DOI", "{b} Opinion Panel - Signup", "{b} Rewards Survey"] },
  { name: "Lead Gen", weight: 3, theme: "services", blurb: "a lead generation program", payouts: P.soi,
    templates: ["{b} - Zip Submit", "{b} - Email Submit", "{b} Coupons - SOI", "{b} Samples - Lead"] },
  { name: "Pay Per Call", top: true, weight: 1.5, theme: "services", blurb: "an inbound call campaign", payouts: P.calls, usFocused: true,
    templates: ["{b} - Inbound Calls", "{b} Call Center - Calls", "{b} Hotline - Calls", "{b} - Live Transfer"] },
  { name: "Debt Relief", weight: 2, theme: "finance", blurb: "a debt relief program", payouts: P.homeLeads, related: ["Finance"], usFocused: true,
    templates: ["{b} Debt Relief - Lead", "{b} Debt Consolidation", "{b} Debt Relief - Calls", "{b} Tax Debt - Lead"] },
  { name: "Credit Repair", weight: 1.5, theme: "finance", blurb: "a credit repair and monitoring service", payouts: P.loans, related: ["Finance"], usFocused: true,
    templates: ["{b} Credit Repair - Lead", "{b} Credit Score - Trial", "{b} Credit Monitoring - Trial", "{b} Credit Builder"] },
  { name: "Real Estate", weight: 1.5, theme: "finance", blurb: "a real estate lead program", payouts: P.homeLeads, related: ["Lead Gen"], usFocused: true,
    templates: ["{b} Home Value - Lead", "{b} Realty - Seller Lead", "{b} Homes - Buyer Lead", "{b} Cash Home Buyers - Lead"] },
  { name: "Pets", weight: 1.5, theme: "shopping", blurb: "a pet care brand", payouts: P.subscription, related: ["E-commerce"],
    templates: ["{b} Pet Insurance Quote", "{b} Dog Food - First Box", "{b} Pet Supplements", "{b} Cat Treats Box"] },
  { name: "Fashion", weight: 2, theme: "shopping", blurb: "a fashion label", payouts: P.shop, related: ["E-commerce"],
    templates: ["{b} Apparel - Sale", "{b} Sneakers", "{b} Jewelry - Sale", "{b} Eyewear - First Order", "{b} Styling Box"] },
  { name: "Subscription Boxes", weight: 1.5, theme: "shopping", blurb: "a monthly subscription box", payouts: P.subscription, related: ["E-commerce"],
    templates: ["{b} Box - First Box", "{b} Meal Kit - Trial", "{b} Snack Box", "{b} Razor Club - Trial", "{b} Wine Club"] },
  { name: "Streaming", weight: 2, theme: "media", blurb: "a video and music streaming service", payouts: P.subscription, mobile: 0.4,
    templates: ["{b} - Free Trial", "{b} Streaming - Subscription", "{b} TV - Signup", "{b} Music - Trial", "{b}+ - Trial"] },
  { name: "Utilities", weight: 1, theme: "services", blurb: "an energy and internet provider comparison", payouts: P.insurance, related: ["Home Services"],
    templates: ["{b} Energy - Switch", "{b} Internet - Calls", "{b} Electricity - Lead", "{b} Broadband Quote"] },
  { name: "Mortgage", weight: 1.5, theme: "finance", blurb: "a mortgage lender marketplace", payouts: P.homeLeads, related: ["Finance", "Real Estate"], usFocused: true,
    templates: ["{b} Mortgage Refinance - Lead", "{b} Home Loans - Lead", "{b} Reverse Mortgage - Calls", "{b} HELOC - Lead"] },
  { name: "Medicare", weight: 1.5, theme: "finance", blurb: "a Medicare plan comparison service", payouts: P.insurance, related: ["Insurance"], usFocused: true,
    templates: ["{b} Medicare Advantage - Calls", "{b} Medicare Supplement - Lead", "{b} Senior Health - Calls", "{b} ACA Health - Calls"] },
  { name: "Tax", weight: 1, theme: "finance", blurb: "a tax preparation and relief service", payouts: P.loans, related: ["Finance"], usFocused: true,
    templates: ["{b} Tax Relief - Lead", "{b} Tax Filing - Signup", "{b} Tax Debt - Calls", "{b} IRS Help - Lead"] },
];

/**
 * Conversion points named in a product's name fix its payout type ("- FTD" is paid per
 * first deposit, "- Calls" per call). First match wins; names without one follow the
 * vertical's payout profile.
 */
export const NAME_PAYOUT_HINTS: readonly (readonly [RegExp, PayoutType])[] = [
  [/RevShare|Hybrid/, "revshare"],
  [/Calls|Live Transfer/, "pay-per-call"],
  [/Install|- Android|- iOS/, "CPI"],
  [/- Click/, "CPC"],
  [/FTD|First Deposit|Funded|PPS|Straight Sale|Trial|First Box|First Order|Level 10|Open$/, "CPA"],
  [/SOI|DOI|PPL|Registration|Signup|Lead|Quote|Submit|Zip|CPL|Switch/, "CPL"],
  [/- Sale|Booking/, "CPS"],
];

/** Ranges used when a name fixes a payout type the vertical's profile does not list. */
export const DEFAULT_PAYOUT_RANGES: Readonly<Record<PayoutType, readonly [number, number]>> = {
  CPA: [15, 120], CPL: [2, 35], CPS: [5, 40], CPI: [0.5, 4], CPC: [0.1, 2], "pay-per-call": [20, 120], revshare: [25, 50],
};

/** Brand parts per theme: first + second (+ sometimes a third) make a brand such as KetoBurn. */
export const BRAND_PARTS: Readonly<Record<Theme, readonly [readonly string[], readonly string[]]>> = {
  health: [
    ["Keto", "Vita", "Slim", "Nutri", "Pure", "Glow", "Derma", "Flex", "Zen", "Bio", "Herba", "Lean", "Vital", "Natura", "Omega", "Cell", "Radi", "Lumi", "Revi", "Sera"],
    ["Burn", "Boost", "Fit", "Glow", "Max", "Core", "Tone", "Life", "Cure", "Leaf", "Luxe", "Renew", "Shape", "Balance", "Gen", "Charge", "Well", "Bloom"],
  ],
  dating: [
    ["Heart", "Love", "Match", "Flirt", "Date", "Soul", "Cupid", "Spark", "Crush", "Amour", "Night", "Single", "Kiss", "Wink", "Mingle", "Velvet"],
    ["Link", "Mate", "Meet", "Finder", "Hub", "Connect", "Chat", "Zone", "Line", "Date", "Match", "Vibes", "Nest", "Club"],
  ],
  gambling: [
    ["Lucky", "Spin", "Royal", "Golden", "Jack", "Ace", "Vegas", "Mega", "Star", "Wild", "Fortune", "Diamond", "Bet", "Slot", "Goal", "Jackpot", "Red", "Grand"],
    ["Spin", "Slots", "Bet", "Palace", "Play", "Win", "Reels", "Stake", "Odds", "Kings", "Crown", "Bingo", "Vault", "Dice"],
  ],
  finance: [
    ["Safe", "Smart", "Clear", "True", "Fair", "Swift", "Prime", "First", "Capital", "Trust", "Shield", "Liberty", "Summit", "Harbor", "Bright", "Rapid", "Secure", "Noble"],
    ["Lend", "Cash", "Fund", "Credit", "Quote", "Cover", "Rate", "Loan", "Pay", "Money", "Guard", "Path", "Bridge", "Point", "Wise", "Drive"],
  ],
  trading: [
    ["Bit", "Coin", "Crypto", "Block", "Chain", "Quantum", "Satoshi", "Token", "Hash", "Fx", "Trade", "Pip", "Market", "Alpha", "Nexa", "Lumen"],
    ["Trader", "Vault", "Edge", "Profit", "Pro", "Wallet", "Flow", "Bot", "Yield", "Signal", "Markets", "Capital", "Swap", "Ledger"],
  ],
  shopping: [
    ["Happy", "Cozy", "Urban", "Snap", "Fresh", "Paw", "Bloom", "Style", "Trend", "Daily", "Little", "Modern", "Gift", "Dream", "Sunny", "Wander"],
    ["Box", "Cart", "Shop", "Wear", "Paws", "Crate", "Nest", "Style", "Threads", "Deals", "Basket", "Closet", "Treats", "Market", "Trip"],
  ],
  software: [
    ["Secure", "Shield", "Swift", "Turbo", "Clean", "Cyber", "Guard", "Net", "Stream", "Hyper", "Pixel", "Cloud", "Zap", "Nova", "Stealth", "Dragon"],
    ["VPN", "Guard", "Shield", "Cleaner", "Tunnel", "Defender", "Box", "Safe", "Speed", "Apps", "Lock", "Wall", "Scan", "Sync"],
  ],
  games: [
    ["Dragon", "Pixel", "Hero", "Clash", "Empire", "Legend", "Shadow", "Magic", "Castle", "Puzzle", "Candy", "Tiny", "Galaxy", "Kingdom", "Rune", "Mythic"],
    ["Quest", "Saga", "Raid", "Realm", "Wars", "Heroes", "Craft", "Tales", "Rush", "Blast", "Clash", "Land", "Odyssey", "Forge"],
  ],
  media: [
    ["Stream", "Binge", "Flix", "Vibe", "Cine", "Tune", "Watch", "Reel", "Beat", "Play", "Pop", "Star", "Couch", "Prime"],
    ["Flix", "Box", "Play", "Stream", "Tube", "Wave", "Tunes", "Cast", "Max", "Now", "TV", "Vision", "Hub", "Night"],
  ],
  services: [
    ["Sun", "Home", "Pro", "Eco", "Bright", "Green", "Solar", "Quick", "Smart", "Ever", "True", "Blue", "Star", "Liberty", "Sky", "Summit"],
    ["Power", "Fix", "Guard", "Path", "Learn", "Trip", "Legal", "Quote", "Advisor", "Works", "Care", "Help", "Rewards", "Survey", "Voice", "Prize"],
  ],
};

/** Optional third brand part, so that large seeds still find new brands. */
export const BRAND_TAILS = ["ly", "ify", "io", "Go", "Hub", "X", "Plus", "One", "360", "Pro", "Max", "Now", "Zone", "Lab"] as const;

export const TLDS: readonly (readonly [string, number])[] = [
  ["com", 60], ["net", 8], ["co", 8], ["io", 5], ["shop", 4], ["app", 4], ["online", 3], ["site", 3], ["org", 2], ["store", 3],
];

export const LANDING_PATHS = ["lp", "offer", "trial", "start", "v2", "special", "promo", "go", "signup", "welcome"] as const;

// Networks: names such as "ClickBounty Media" or "MaxRev".
export const NETWORK_FIRST = [
  "Ad", "Click", "Lead", "Max", "Bounty", "Rev", "Profit", "Cash", "Convert", "Offer", "Peak", "Apex", "Nova", "Zen", "Mobi",
  "Perform", "Digi", "Blue", "Golden", "Alpha", "Vertex", "Orbit", "Pulse", "Velocity", "Summit", "Titan", "Crest", "Echo",
  "Prime", "Spark", "Lime", "Coral", "Falcon", "Cobalt", "Matrix", "Quantum", "Rocket", "Arrow", "Bright", "Iron",
] as const;
export const NETWORK_SECOND = [
  "Bounty", "Rev", "Leads", "Cash", "Click", "Flow", "Wave", "Pay", "Yield", "Reach", "Path", "Stack", "Pulse", "Logic",
  "Loop", "Mint", "Bridge", "Forge", "Point", "Scale", "Grid", "Track", "Ads", "Profit",
] as const;
export const NETWORK_SUFFIX = [
  "Media", "Affiliates", "Network", "Digital", "Ads", "Partners", "Group", "Performance", "Marketing", "Interactive",
  "Traffic", "Revenue", "Labs", "Hub",
] as const;

export const PAYMENT_TERMS: readonly (readonly [string, number])[] = [
  ["Net 7", 15], ["Net 15", 25], ["Net 30", 30], ["Weekly", 15], ["Bi-weekly", 8], ["Monthly", 7],
];
export const PAYMENT_METHODS = ["PayPal", "Wire", "ACH", "Check", "Payoneer", "Bitcoin", "USDT", "Paxum", "WebMoney", "Direct Deposit"] as const;
export const MINIMUM_PAYMENTS = [25, 50, 50, 100, 100, 100, 250, 500] as const;
export const TRACKING_PLATFORMS: readonly (readonly [string, number])[] = [
  ["CAKE", 22], ["HasOffers/TUNE", 22], ["Everflow", 20], ["Affise", 10], ["HitPath", 8], ["LinkTrust", 6], ["Custom", 12],
];
export const COMMISSION_TYPES = ["CPA", "CPL", "CPS", "RevShare", "CPI", "PPC"] as const;

export const NETWORK_INTROS = [
  "{name} is a performance marketing network founded in {year}, specialising in {verticals}.",
  "Since {year}, {name} has connected publishers with exclusive {verticals} campaigns.",
  "{name} is a CPA network focused on {verticals}, with in-house offers and direct advertisers.",
  "Founded in {year}, {name} runs a global affiliate program covering {verticals}.",
] as const;
export const NETWORK_PERKS = [
  "Every affiliate gets a dedicated account manager.",
  "Weekly payments are available for established affiliates.",
  "Offers are tracked in real time with postback and pixel support.",
  "New publishers are approved within 24 hours.",
  "Exclusive payout bumps are available for quality traffic.",
  "Our compliance team reviews every campaign before launch.",
  "Smart links route traffic to the best-converting offer per geo.",
  "Creatives, landers and pre-landers are provided for every campaign.",
] as const;

// Traffic sources: names such as "PropelPush" or "NativeNest".
export const TRAFFIC_FIRST = [
  "Propel", "Native", "Pop", "Push", "Pulse", "Vortex", "Harbor", "Spire", "Orbit", "Beacon", "Swift", "Nimbus", "Comet",
  "Rocket", "Falcon", "Kite", "Ember", "Granite", "Quasar", "Tide",
] as const;
export const TRAFFIC_SECOND = ["Push", "Nest", "Ads", "Flow", "Reach", "Traffic", "Click", "View", "Media", "Stream", "Wave", "Buzz"] as const;
export const AD_FORMATS = ["Push", "Pop", "Native", "Display", "Video", "In-Page Push", "Search", "Social", "Domain Redirect"] as const;
export const PRICING_MODELS = ["CPC", "CPM", "CPA", "CPV"] as const;
export const MINIMUM_DEPOSITS = [0, 50, 100, 100, 200, 250, 500, 1000] as const;
export const TRAFFIC_SOURCE_INTROS = [
  "{name} is a self-serve ad network with {formats} inventory.",
  "{name} sells {formats} traffic with real-time bidding and detailed targeting.",
  "Buy {formats} traffic at scale on {name}, with anti-fraud filtering on every impression.",
  "{name} offers premium {formats} placements from direct publishers.",
] as const;

export const TRAFFIC_TYPES = [
  "Email", "Search", "Social", "Native", "Display", "Push", "Pop", "Incentive", "Contextual", "SMS", "Influencer",
] as const;

/** Geo presets: [countries, label used in product names or null, weight]. */
export const GEO_PRESETS: readonly (readonly [readonly string[], string | null, number])[] = [
  [["US"], "US", 30],
  [["US", "CA"], "US/CA", 12],
  [["US", "CA", "GB", "AU", "NZ"], "Tier 1", 8],
  [["GB"], "UK", 6],
  [["GB", "IE"], "UK/IE", 2],
  [["DE", "AT", "CH"], "DACH", 4],
  [["FR", "BE", "CH"], "FR/BE/CH", 3],
  [["CA"], "CA", 3],
  [["AU", "NZ"], "AU/NZ", 3],
  [["DE", "FR", "IT", "ES", "NL", "BE", "AT", "PT", "IE", "FI", "GR"], "EU", 4],
  [["ES"], "ES", 2],
  [["IT"], "IT", 2],
  [["NL", "BE"], "Benelux", 1],
  [["SE", "NO", "DK", "FI"], "Nordics", 2],
  [["BR", "MX", "AR", "CL", "CO", "PE"], "LATAM", 3],
  [["BR"], "BR", 2],
  [["MX"], "MX", 1],
  [["IN"], "IN", 2],
  [["JP"], "JP", 1],
  [["CH"], "CH", 1],
  [["PL"], "PL", 1],
  [["SG", "MY", "TH", "ID", "PH", "VN"], "SEA", 2],
  [["US", "CA", "GB", "AU", "NZ", "IE", "DE", "FR", "IT", "ES", "NL", "BE", "AT", "CH", "SE", "NO", "DK", "FI", "PL", "PT",
    "CZ", "GR", "BR", "MX", "AR", "CL", "CO", "IN", "JP", "KR", "SG", "MY", "TH", "ID", "PH", "ZA", "AE", "SA", "IL", "TR"], "WW", 5],
];

/** Pieces for house ads, per slot size. */
export const HOUSE_ADS: readonly { slot: "728x90" | "270x70" | "250x250" | "125x125" | "370x165"; headline: string; body: string; target: string; weight: number }[] = [
  { slot: "728x90", headline: "Advertise on OfferAtlas", body: "Put your network in front of thousands of affiliates every day.", target: "/advertise", weight: 3 },
  { slot: "728x90", headline: "Compare payouts across networks", body: "The same offer, every network that runs it, side by side.", target: "/", weight: 2 },
  { slot: "728x90", headline: "Free affiliate marketing training", body: "Watch the OfferAtlas video series on YouTube.", target: "https://youtube.com/@offeratlas-example", weight: 1 },
  { slot: "270x70", headline: "List your network", body: "Get reviewed by real affiliates.", target: "/add-your-network", weight: 3 },
  { slot: "270x70", headline: "Browse affiliate networks", body: "Ratings, payouts and payment terms.", target: "/networks", weight: 2 },
  { slot: "270x70", headline: "Find traffic sources", body: "Push, pop, native and more.", target: "/traffic-sources", weight: 1 },
  { slot: "250x250", headline: "Your banner here", body: "Sidebar placements on every search page. Ask us for rates.", target: "/advertise", weight: 3 },
  { slot: "250x250", headline: "Track your calls", body: "Pay-per-call tracking built for affiliates.", target: "https://calltracking.offeratlas.example", weight: 2 },
  { slot: "250x250", headline: "Read the OfferAtlas blog", body: "Case studies, vertical guides and network news.", target: "https://blog.offeratlas.example", weight: 1 },
  { slot: "125x125", headline: "Advertise", body: "Small ads, big reach.", target: "/advertise", weight: 3 },
  { slot: "125x125", headline: "Add network", body: "Free listing.", target: "/add-your-network", weight: 2 },
  { slot: "125x125", headline: "Top offers", body: "What affiliates run now.", target: "/", weight: 2 },
  { slot: "125x125", headline: "Pay per call", body: "Inbound call offers.", target: "/pay-per-call-offers", weight: 1 },
  { slot: "370x165", headline: "Sponsor this search", body: "Show your offers above the results for the keywords you choose.", target: "/advertise", weight: 3 },
  { slot: "370x165", headline: "Need fresh traffic?", body: "Compare traffic sources by format, pricing and minimum deposit.", target: "/traffic-sources", weight: 2 },
  { slot: "370x165", headline: "Rate your network", body: "Share your experience and help other affiliates choose.", target: "/networks", weight: 1 },
];

/** External links stored on the site row (spec: navigation bar and footer). */
export const SITE_LINKS = {
  dashboardUrl: "https://dashboard.offeratlas.example",
  advertiserLoginUrl: "https://dashboard.offeratlas.example/advertiser/login",
  passwordRecoveryUrl: "https://dashboard.offeratlas.example/password/recover",
  blogUrl: "https://blog.offeratlas.example",
  trainingVideosUrl: "https://www.youtube.com/@offeratlas-example/videos",
  callTrackingUrl: "https://calltracking.offeratlas.example",
  facebookUrl: "https://www.facebook.com/offeratlas.example",
  youtubeUrl: "https://www.youtube.com/@offeratlas-example",
  twitterUrl: "https://twitter.com/offeratlas_example",
} as const;
