// Navigation progress (docs/product.md §9): appears only after 200 ms, so fast pages show
// nothing, then creeps towards the end over about 5 seconds; 3 px high.
import { useEffect, useState } from "react";
import { useNavigation } from "react-router";

const PROGRESS_DELAY_MS = 200;
const PROGRESS_DURATION_MS = 5000;

export function ProgressBar() {
  const busy = useNavigation().state !== "idle";
  const [phase, setPhase] = useState<"idle" | "running" | "done">("idle");
  useEffect(() => {
    if (busy) {
      const t = setTimeout(() => setPhase("running"), PROGRESS_DELAY_MS);
      return () => clearTimeout(t);
    }
    // Finish the bar if it was showing, then hide it.
    const finish = setTimeout(() => setPhase((p) => (p === "running" ? "done" : "idle")), 0);
    const hide = setTimeout(() => setPhase("idle"), 300);
    return () => {
      clearTimeout(finish);
      clearTimeout(hide);
    };
  }, [busy]);
  if (phase === "idle") return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      aria-busy={phase === "running"}
      className="fixed inset-x-0 top-0 z-50 h-[3px]"
    >
      <div
        className="h-full bg-brand-500"
        style={{
          width: phase === "running" ? "90%" : "100%",
          transition:
            phase === "running"
              ? `width ${PROGRESS_DURATION_MS}ms cubic-bezier(.1,.6,.3,1)`
              : "width 200ms, opacity 300ms",
          opacity: phase === "done" ? 0 : 1,
        }}
      />
    </div>
  );
}
