// After a client-side navigation to another page, focus moves to the new page's main
// heading and its title is announced, as a full page load would. Staying on the same
// path (a search being typed, a filter ticked, a sort) leaves focus where it is:
// paging moves it itself (Pagination), and typing must never lose the caret.
// The first load is the browser's: nothing is moved.
import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { focusRegion } from "./focus";

export function NavigationFocus() {
  const { pathname, hash } = useLocation();
  const previous = useRef(pathname);
  const [title, setTitle] = useState("");
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    // A link to a part of the page (/network/1/x#reviews) goes to that part, else to the page's heading.
    const region = (hash && document.getElementById(hash.slice(1))) || document.getElementById("main");
    if (region) focusRegion(region);
    setTitle(document.title);
  }, [pathname, hash]);
  return (
    <p role="status" aria-live="polite" className="sr-only" data-testid="route-announcer">
      {title}
    </p>
  );
}
