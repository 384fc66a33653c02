import { frameNQuads, loadFrame, refuseRemoteDocuments, RemoteDocumentRefused } from '../../src/shaping/jsonld.js';

describe('JSON-LD processing never reaches the network', () => {
  it('refuses every URL the document loader is asked for', async () => {
    await expect(refuseRemoteDocuments('https://schema.org/')).rejects.toThrow(RemoteDocumentRefused);
    await expect(refuseRemoteDocuments('http://127.0.0.1/context.jsonld')).rejects.toThrow(RemoteDocumentRefused);
  });

  it('fails a frame whose context names a remote document instead of fetching it', async () => {
    const frame = { '@context': 'https://example.org/context.jsonld', '@id': 'http://x/a' };
    await expect(frameNQuads('<http://x/a> <http://x/p> "v" .\n', frame)).rejects.toThrow();
  });

  it('inlines the local context of a frame file', () => {
    const frame = loadFrame('object');
    expect(typeof frame['@context']).toBe('object');
    expect((frame['@context'] as Record<string, unknown>).crm).toBe('http://www.cidoc-crm.org/cidoc-crm/');
  });

  it('frames a record graph into compact JSON with the prefixes of the context', async () => {
    const nquads = [
      '<http://x/o> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.cidoc-crm.org/cidoc-crm/E22_Human-Made_Object> <http://x/o> .',
      '<http://x/o> <http://www.w3.org/2000/01/rdf-schema#label> "Vaas" <http://x/o> .',
    ].join('\n');
    const framed = await frameNQuads(nquads, { ...loadFrame('object'), '@id': 'http://x/o' });
    expect(framed['@type']).toBe('crm:E22_Human-Made_Object');
    expect(framed['rdfs:label']).toBe('Vaas');
  });
});

describe('Shaped records stay valid JSON-LD', () => {
  it('leaves the context alone and expands again with jsonld.js', async () => {
    const { shapeObject } = await import('../../src/kinds/objects/shaping.js');
    const jsonld = (await import('jsonld')).default;
    const nquads = [
      '<http://x/o> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.cidoc-crm.org/cidoc-crm/E22_Human-Made_Object> .',
      '<http://x/o> <https://www.w3.org/2002/07/owl#sameAs> <http://y/1> .',
      '<http://x/o> <http://www.cidoc-crm.org/cidoc-crm/P2_has_type> <http://x/t> .',
      '<http://x/t> <https://www.w3.org/2002/07/owl#sameAs> <http://y/2> .',
    ].join('\n');
    const shaped = shapeObject(await frameNQuads(nquads, { ...loadFrame('object'), '@id': 'http://x/o' }));
    expect((shaped['@context'] as Record<string, unknown>)['owl:sameAs']).toEqual({ '@type': '@id' });
    const expanded = await jsonld.expand(shaped as never, { documentLoader: refuseRemoteDocuments } as never);
    expect(JSON.stringify(expanded)).toContain('http://y/2');
  });
});
