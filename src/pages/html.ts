/**
 * HTML text built safely: `html` is a tagged template whose interpolated values are escaped unless they are
 * already `Html` (the result of another `html` template), so a record's text can never become markup.
 */

/** Text safe inside HTML element content and double-quoted attributes. */
export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON that is safe inside a <script> element (no `</script>`, no HTML comment openers). */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

/** A piece of HTML that is safe as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template may interpolate: nothing (undefined, null, false), text (escaped), HTML, or a list of them. */
export type HtmlValue = Html | string | number | undefined | null | false | readonly HtmlValue[];

const render = (value: HtmlValue): string => {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
};

/** The template as HTML, every interpolated value escaped unless it is `Html`. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let text = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) text += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(text);
}
