/** Small pieces shared by the HTML pages this service serves (the SPARQL editor, /docs). */
import { join } from 'node:path';
import { Router } from 'express';

/** Text safe inside HTML element content and double-quoted attributes. */
export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON that is safe inside a <script> element (no `</script>`, no HTML comment openers). */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

/** GET routes for named files of local folders (a page's scripts and styles; no CDN), cached for a day. */
export function staticFileRoutes(sources: readonly { dir: string; files: readonly string[] }[]): Router {
  const router = Router();
  const options = { maxAge: '1d', dotfiles: 'allow' } as const;
  for (const { dir, files } of sources) {
    for (const file of files) router.get(`/${file}`, (_req, res, next) => res.sendFile(join(dir, file), options, (err) => err && next(err)));
  }
  return router;
}
