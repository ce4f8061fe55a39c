// Internal addresses used across the shell, in one place.
export const HOME_RESET = "/?selectedTab=topOffers&search=&page=1";

export const NAV_LINKS = [
  { to: "/login", label: "Login", guestOnly: true },
  { to: "/register", label: "Register", guestOnly: true },
  { to: "/advertise", label: "Advertise" },
  { to: "/add-your-network", label: "Add Your Network" },
  { to: "/contact", label: "Help" },
] as const;

export const FOOTER_LINKS = [
  { to: "/", label: "Home" },
  { to: "/login", label: "Login" },
  { to: "/register", label: "Register" },
  { to: "/contact", label: "Contact" },
  { to: "/faq", label: "FAQ", newTab: true },
  { to: "/links", label: "Links" },
  { to: "/privacy", label: "Privacy" },
  { to: "/terms", label: "Terms" },
] as const;
