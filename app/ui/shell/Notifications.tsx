// Notifications (docs/product.md §8, §9): info, warn, error and success; errors are titled
// "ERROR"; each stays 10 seconds; at most 500 px wide.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";

type NotificationType = "info" | "warn" | "error" | "success";
export type Notification = { id: number; type: NotificationType; title: string; text: string };

const NOTIFICATION_DURATION_MS = 10_000;
const DEFAULT_TITLES: Record<NotificationType, string> = {
  info: "Info",
  warn: "Warning",
  error: "ERROR",
  success: "Success",
};

type Notify = (n: { type: NotificationType; text: string; title?: string }) => void;
const NotifyContext = createContext<Notify>(() => {});

export const useNotify = () => useContext(NotifyContext);

export function NotificationProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Notification[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setItems((all) => all.filter((n) => n.id !== id)), []);
  const notify = useCallback<Notify>(({ type, text, title }) => {
    const id = next.current++;
    setItems((all) => [...all, { id, type, text, title: title ?? DEFAULT_TITLES[type] }]);
  }, []);
  const value = useMemo(() => notify, [notify]);
  return (
    <NotifyContext.Provider value={value}>
      {children}
      <div
        aria-live="polite"
        className="pointer-events-none fixed right-3 top-16 z-50 flex w-[calc(100%-1.5rem)] max-w-[500px] flex-col gap-2"
      >
        {items.map((n) => (
          <Toast key={n.id} item={n} onClose={() => dismiss(n.id)} />
        ))}
      </div>
    </NotifyContext.Provider>
  );
}

const STYLES: Record<NotificationType, string> = {
  info: "border-sky-300 bg-sky-50 text-sky-900",
  warn: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
};

function Toast({ item, onClose }: { item: Notification; onClose: () => void }) {
  useEffect(() => {
    const t = setTimeout(onClose, NOTIFICATION_DURATION_MS);
    return () => clearTimeout(t);
  }, [onClose]);
  return (
    <div
      role={item.type === "error" ? "alert" : "status"}
      data-notification={item.type}
      className={`pointer-events-auto rounded-md border p-3 shadow-md ${STYLES[item.type]}`}
    >
      <div className="flex items-start gap-3">
        <div className="flex-1">
          <p className="text-sm font-bold">{item.title}</p>
          <p className="text-sm">{item.text}</p>
        </div>
        <button
          type="button"
          onClick={onClose}
          className="text-lg leading-none opacity-60 hover:opacity-100"
          aria-label="Dismiss"
        >
          ×
        </button>
      </div>
    </div>
  );
}
