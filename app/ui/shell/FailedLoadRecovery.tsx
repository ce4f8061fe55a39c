// A failed lazy page load (docs/product.md §4, §8): when a page's code cannot be
// loaded during a client navigation (a deploy replaced the chunks, the connection
// dropped), React Router reloads the document it is on. The visitor asked for the
// page they clicked, so that reload becomes a full load of the navigation's target:
// the reload's `navigate` event (Navigation API) is cancelled and the target opened.
// Without the Navigation API the reload stays, as before.
import { useContext, useEffect } from "react";
import { createPath, UNSAFE_DataRouterContext } from "react-router";

type NavigateEvent = Event & { navigationType: string };

export function FailedLoadRecovery() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;

  useEffect(() => {
    const api = (window as Window & { navigation?: EventTarget }).navigation;
    if (!api || !router) return;
    const onNavigate = (event: Event) => {
      // Read from the router itself, not React state: the load can fail before React has rendered the navigation.
      const pending = router.state.navigation;
      // A script's reload while the router is still on its way: the router giving up on the target.
      if ((event as NavigateEvent).navigationType !== "reload" || !event.cancelable || pending.state === "idle") return;
      event.preventDefault();
      window.location.assign(createPath(pending.location));
    };
    api.addEventListener("navigate", onNavigate);
    return () => api.removeEventListener("navigate", onNavigate);
  }, [router]);

  return null;
}
