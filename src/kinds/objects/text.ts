/** What `q` searches in objects: the object number (weight 4), titles (3) and descriptions (1) in nl, fr and en. */
import { TEXT_LANGUAGES } from '../../collection-index/text/analysis.js';
import type { TextField } from '../../collection-index/text/text-index.js';
import type { ObjectTable } from './table.js';

export const OBJECT_TEXT_WEIGHTS = { number: 4, title: 3, description: 1 } as const;

/** The text fields of the objects collection. */
export function objectTextFields(table: ObjectTable): TextField[] {
  return [
    { name: 'number', boost: OBJECT_TEXT_WEIGHTS.number, analysis: 'identifier', text: (id) => table.numbers[id] },
    ...TEXT_LANGUAGES.map((lang): TextField => ({ name: `title_${lang}`, boost: OBJECT_TEXT_WEIGHTS.title, analysis: lang, text: (id) => table.titles[lang][id] })),
    ...TEXT_LANGUAGES.map(
      (lang): TextField => ({ name: `description_${lang}`, boost: OBJECT_TEXT_WEIGHTS.description, analysis: lang, text: (id) => table.descriptions[lang][id] }),
    ),
  ];
}
