/** The page for people of an error answer: the status, the same message the JSON body gives, and ways on. */
import { STATUS_CODES } from 'node:http';
import { html, type Html } from './html.js';
import { page } from './layout.js';
import { collectionName, say, type PageLanguage } from './messages.js';

/**
 * A page that says what happened to the resource asked for, with a link to where it went when it moved. The
 * message is the JSON body's (English, as the API's errors are); the page's own words are in `lang`.
 */
export function messagePage(status: number, message: string, to: { href: string; text: string } | undefined, lang: PageLanguage): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  const link = (collection: string): Html => html`<a href="/v2/id/${collection}">${collectionName(collection, lang).toLowerCase()}</a>`;
  const main = html`<section class="error"><h1>${title}</h1><p lang="en">${message}</p>
${to !== undefined ? html`<p>${say('goTo', lang)} <a href="${to.href}">${to.text}</a>.</p>` : ''}
<p>${say('tryThe', lang)} ${link('objects')}, ${link('agents')}, ${link('exhibitions')} ${say('or', lang)} ${link('concepts')}, ${say('orThe', lang)} <a href="/">${say('startPage', lang)}</a>.</p></section>`;
  return page({ title, lang, main });
}
