/** The page for people of an error answer: the status, the same message the JSON body gives, and ways on. */
import { STATUS_CODES } from 'node:http';
import { html } from './html.js';
import { page } from './layout.js';

export function errorPage(status: number, message: string): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  const main = html`<section class="error"><h1>${title}</h1><p>${message}</p>
<p>Try the <a href="/v2/id/objects">objects</a>, <a href="/v2/id/agents">agents</a>, <a href="/v2/id/exhibitions">exhibitions</a> or <a href="/v2/id/concepts">concepts</a>, or the <a href="/">start page</a>.</p></section>`;
  return page({ title, lang: 'en', main });
}
