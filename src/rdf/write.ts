/** Writing RDF with n3: the text a Writer holds once it is ended, as a promise. */
import type { Writer } from 'n3';

/** Ends `writer` and gives the text it wrote. */
export const writerText = (writer: Writer): Promise<string> =>
  new Promise((resolve, reject) => writer.end((err: Error | null, text: string) => (err ? reject(err) : resolve(text))));
