// The FAQ as an accordion of native disclosure widgets: keyboard and screen
// reader support comes with <details>/<summary>, and it works without
// JavaScript. A link to #question-id opens that question.
import { useEffect } from "react";
import { useLocation } from "react-router";
import type { FaqSection } from "#contracts/content.ts";
import { Prose } from "./Prose";

export function FaqAccordion({ sections }: { sections: FaqSection[] }) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (target instanceof HTMLDetailsElement) {
      target.open = true;
      target.scrollIntoView({ block: "start" });
    }
  }, [hash]);

  return (
    <div className="space-y-6">
      {sections.map((section) => (
        <section key={section.title} aria-labelledby={`faq-${section.items[0]?.id ?? section.title}-h`}>
          <h2 id={`faq-${section.items[0]?.id ?? section.title}-h`} className="mb-2 text-lg font-semibold">
            {section.title}
          </h2>
          <div className="divide-y divide-slate-200 rounded-md border border-slate-200">
            {section.items.map((item) => (
              <details key={item.id} id={item.id} className="group scroll-mt-20">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-3 px-3 py-2.5 font-medium hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500 [&::-webkit-details-marker]:hidden">
                  <span>{item.question}</span>
                  <span aria-hidden="true" className="text-slate-500 transition-transform group-open:rotate-180">
                    ▾
                  </span>
                </summary>
                <Prose html={item.answerHtml} className="px-3 pb-3" />
              </details>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
