/**
 * docs/graph-model.md "Non-public quads": graphs of public, healthy, current records go to the public
 * output; every other graph and the admin graph with the records' states go to the non-public output.
 */
import type { Quad } from 'n3';
import { BASE, copyFixture, graphNames, harvestToText, parseNQuads, parseTurtle, quadLine, removeCopy, type HarvestText } from '../fixtures/source-mini/harvest-fixture.js';

const id = (kind: string, pid: string): string => `${BASE}/v2/id/${kind}/${pid}`;
const ADMIN = `${BASE}/graph/admin`;

describe('Public and non-public output', () => {
  let dir: string;
  let result: HarvestText;
  let publicQuads: Quad[];
  let nonPublicQuads: Quad[];

  beforeAll(async () => {
    dir = await copyFixture();
    result = await harvestToText(dir, { validateImages: false });
    publicQuads = parseNQuads(result.publicText);
    nonPublicQuads = parseNQuads(result.nonPublicText);
  });
  afterAll(() => removeCopy(dir));

  it('writes exactly the public, healthy, current records to the public output', () => {
    const expected = [
      ...['530000049', '530000100', '530000101', '530006321', '530000060', '530008405'].map((p) => id('concept', p)),
      ...['DMG-A-00162', 'DMG-A-03731', 'DMG-A-00523', 'DMG-A-00600'].map((p) => id('agent', p)),
      ...['TE_2020-001', 'TE_1993-009'].map((p) => id('exhibition', p)),
      ...['1987-1105', '1990-0060_0-5', '1990-0060_1-5', 'TUP-0073', '2004-0050'].map((p) => id('object', p)),
    ];
    expect([...graphNames(publicQuads)].sort()).toEqual(expected.sort());
  });

  it('writes private, unhealthy, merged and removed records and the admin graph to the non-public output', () => {
    const expected = [
      id('concept', '530000999'),
      id('agent', 'DMG-A-00700'),
      id('exhibition', 'TE_2003-010'),
      ...['1990-0060_2-5', '0935', '1482', '3057'].map((p) => id('object', p)),
      ADMIN,
    ];
    expect([...graphNames(nonPublicQuads)].sort()).toEqual(expected.sort());
  });

  it('records the state of every record that is not servable in the admin graph', () => {
    const expected = parseTurtle(`
@prefix admin: <urn:x-museum-ld:admin#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<${id('concept', '530000999')}> admin:state "current" ; admin:private true .
<${id('agent', 'DMG-A-00700')}> admin:state "current" ; admin:private true .
<${id('exhibition', 'TE_2003-010')}> admin:state "current" ; admin:private true .
<${id('object', '1990-0060_2-5')}> admin:state "current" ; admin:private true .
<${id('object', '0935')}> admin:state "current" ; admin:healthy false .
<${id('object', '1482')}> admin:state "merged" ; admin:resolvesTo <${id('object', '1987-1105')}> .
<${id('object', '3057')}> admin:state "removed" .
`);
    const actual = nonPublicQuads.filter((q) => q.graph.value === ADMIN);
    expect(actual.map(quadLine).sort()).toEqual(expected.map(quadLine).sort());
  });

  it('lets no private name, admin fact or dead link reach the public output', () => {
    for (const text of ['geheim materiaal', 'Anonieme medewerker', 'Besloten tentoonstelling', 'urn:x-museum-ld:admin', '/graph/admin']) {
      expect(result.publicText).not.toContain(text);
    }
    const unservable = ['1990-0060_2-5', '0935', '1482', '3057'].map((p) => id('object', p));
    expect(publicQuads.filter((q) => unservable.includes(q.object.value) || unservable.includes(q.subject.value))).toEqual([]);
    expect(publicQuads.some((q) => q.object.value === id('exhibition', 'TE_2003-010'))).toBe(false);
  });

  it('reports record and quad counts that match the output', () => {
    const lines = (text: string): number => text.split('\n').filter((l) => l !== '').length;
    expect(result.report).toEqual({
      records: { objects: 9, agents: 5, exhibitions: 3, concepts: 7 },
      publicQuads: lines(result.publicText),
      nonPublicQuads: lines(result.nonPublicText),
      imagesChecked: 0,
      imagesDropped: 0,
    });
    expect(publicQuads.length).toBe(result.report.publicQuads);
  });

  it('uses each blank node label in one graph only', () => {
    const graphOf = new Map<string, string>();
    // One parse of both files: the parser keeps labels apart per parse, not per file.
    for (const q of parseNQuads(result.publicText + result.nonPublicText)) {
      for (const term of [q.subject, q.object]) {
        if (term.termType !== 'BlankNode') continue;
        const seen = graphOf.get(term.value);
        if (seen !== undefined) expect(seen).toBe(q.graph.value);
        graphOf.set(term.value, q.graph.value);
      }
    }
    expect(graphOf.size).toBeGreaterThan(0);
  });
});
