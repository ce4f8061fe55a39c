// The ad server's command queue (Google Publisher Tag). Commands wait in
// `googletag.cmd` until gpt.js runs them; the page-wide setup always goes first.
import { TAG_SCRIPTS } from "#contracts/tags.ts";
import { loadScript } from "./load-script";

export type GptSlot = { addService(service: unknown): GptSlot };
type Googletag = {
  cmd: { push(command: () => void): void };
  defineSlot(adUnitPath: string, size: [number, number], elementId: string): GptSlot | null;
  pubads(): unknown;
  enableServices(): void;
  display(elementId: string): void;
  destroySlots(slots: GptSlot[]): void;
  setConfig?(config: Record<string, unknown>): void;
};
declare global {
  interface Window {
    googletag?: Partial<Googletag> & { cmd: Googletag["cmd"] };
  }
}

let setUp = false;

/** gpt.js takes over the queue when it runs; until then it is a plain list. */
function gptQueue(): Googletag["cmd"] {
  if (!window.googletag) window.googletag = { cmd: [] as (() => void)[] };
  return window.googletag.cmd;
}

/** Queues `command` after the page-wide setup; it runs once gpt.js has loaded. */
export function gptCommand(command: (googletag: Googletag) => void) {
  const queue = gptQueue();
  if (!setUp) {
    setUp = true;
    queue.push(() => {
      const g = window.googletag as Googletag;
      // Creatives render in SafeFrames (cross-origin iframes), outside the page's CSP.
      g.setConfig?.({ safeFrame: { forceSafeFrame: true } });
      g.enableServices();
    });
  }
  queue.push(() => command(window.googletag as Googletag));
}

export function loadGpt() {
  gptQueue();
  loadScript(TAG_SCRIPTS.gpt);
}
