/** What the routes need to answer a person: the page's language, the alternates as a Link header, nouns. */
import type { Request, Response } from 'express';
import { PAGE_LANGUAGES, RECORD_FORMATS, type PageLanguage } from './record-page.js';

/** The page's language from Accept-Language (Dutch, the museum's, by default); says so in Vary. */
export function pageLanguage(req: Request, res: Response): PageLanguage {
  res.vary('Accept-Language');
  const choice = req.acceptsLanguages(...PAGE_LANGUAGES.map((l) => l.tag));
  return (PAGE_LANGUAGES.find((l) => l.tag === choice)?.tag ?? 'nl') as PageLanguage;
}

/**
 * `Link` of a record answer (RFC 8288): each representation at its own URL (`?format=`), so a client or a
 * person can follow one without setting Accept.
 */
export function alternatesLinkHeader(iri: string): string {
  return [...RECORD_FORMATS.map((f) => ({ format: f.format, type: f.type })), { format: 'html', type: 'text/html' }]
    .map((f) => `<${iri}?format=${f.format}>; rel="alternate"; type="${f.type}"`)
    .join(', ');
}

/** `object` → `Object`. */
export const nounOf = (kind: string): string => kind.charAt(0).toUpperCase() + kind.slice(1);
