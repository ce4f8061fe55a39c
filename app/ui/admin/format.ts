// How the console writes dates: UTC, to the minute, the same on server and browser.
const DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

export const dateTime = (iso: string | null | undefined) => (iso ? `${DATE_TIME.format(new Date(iso))} UTC` : "—");
