// Editorial pages (FAQ, privacy, terms) as the pages show them.

export type ContentPage = { slug: string; title: string; description: string; html: string };
type FaqItem = { id: string; question: string; answerHtml: string; answerText: string };
export type FaqSection = { title: string; items: FaqItem[] };
export type Faq = { title: string; description: string; introHtml: string; sections: FaqSection[] };
