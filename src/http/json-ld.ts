/** Sending JSON-LD documents with the media type the spec names (general rule 3). */
import type { Response } from 'express';

export const JSON_LD_CONTENT_TYPE = 'application/ld+json; charset=utf-8';

/** Sends `doc` as `application/ld+json`; Express answers 304 itself when the request's validators match. */
export function sendJsonLd(res: Response, doc: unknown): void {
  res.setHeader('Content-Type', JSON_LD_CONTENT_TYPE);
  res.send(JSON.stringify(doc));
}
