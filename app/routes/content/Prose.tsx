// Editorial HTML rendered from the repository's Markdown (trusted text, see
// core/content), styled for reading.
export function Prose({ html, className = "" }: { html: string; className?: string }) {
  return (
    <div
      className={`space-y-3 text-[15px] leading-relaxed text-slate-800 [&_a]:text-brand-600 [&_a]:underline [&_a]:decoration-brand-600/40 [&_a]:underline-offset-2 [&_a:hover]:decoration-current [&_h2]:mt-6 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6 [&_li]:mt-1 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 ${className}`}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
