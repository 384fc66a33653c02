/** The page for people of an error answer: the status, the same message the JSON body gives, and ways on. */
import { STATUS_CODES } from 'node:http';
import { html } from './html.js';
import { page } from './layout.js';

/** A page that says what happened to the resource asked for, with a link to where it went when it moved. */
export function messagePage(status: number, message: string, to?: { href: string; text: string }): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  const main = html`<section class="error"><h1>${title}</h1><p>${message}</p>
${to !== undefined ? html`<p>Go to <a href="${to.href}">${to.text}</a>.</p>` : ''}
<p>Try the <a href="/v2/id/objects">objects</a>, <a href="/v2/id/agents">agents</a>, <a href="/v2/id/exhibitions">exhibitions</a> or <a href="/v2/id/concepts">concepts</a>, or the <a href="/">start page</a>.</p></section>`;
  return page({ title, lang: 'en', main });
}
