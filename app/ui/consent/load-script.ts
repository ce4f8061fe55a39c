// Adds a third-party script once per page; called only after consent (Consent.tsx).
export function loadScript(src: string) {
  if ([...document.scripts].some((script) => script.src === src)) return;
  const script = document.createElement("script");
  script.src = src;
  script.async = true;
  document.head.appendChild(script);
}
