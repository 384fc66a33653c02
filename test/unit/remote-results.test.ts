/**
 * The remote store's reading of the server's answers (src/store/remote/results.ts): an ASK is answered as
 * SPARQL JSON's boolean, or, by a Virtuoso whose virtuoso.ini has no [SPARQL] section, as a one-row table.
 * Bodies as Virtuoso 7.2 sends them.
 */
import { askBoolean } from '../../src/store/remote/results.js';

describe('ASK answers from the server', () => {
  it('reads the boolean of SPARQL JSON results', () => {
    expect(askBoolean('{ "head": { "link": [] }, "boolean": true }')).toBe(true);
    expect(askBoolean('{ "head": { "link": [] }, "boolean": false }')).toBe(false);
  });

  it("reads Virtuoso's one-row __ask_retval table", () => {
    const table = (value: string) =>
      `{ "head": { "link": [], "vars": ["__ask_retval"] }, "results": { "distinct": false, "ordered": true, "bindings": [ { "__ask_retval": { "type": "typed-literal", "datatype": "http://www.w3.org/2001/XMLSchema#integer", "value": "${value}" }} ] } }`;
    expect(askBoolean(table('1'))).toBe(true);
    expect(askBoolean(table('0'))).toBe(false);
    expect(askBoolean(table('1').replace(/__ask_retval/g, '__ASK_RETVAL'))).toBe(true);
  });

  it('refuses an answer that holds no boolean rather than reading it as false', () => {
    expect(() => askBoolean('{ "head": { "vars": ["x"] }, "results": { "bindings": [] } }')).toThrow(/holds no boolean/);
  });
});
