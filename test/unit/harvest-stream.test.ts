/**
 * Streaming: the harvest waits for 'drain' instead of buffering its whole output, and reports progress
 * per phase.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { harvestExport, type HarvestOptions } from '../../src/harvest/harvest.js';
import { BASE, copyFixture, fixtureRecord, harvestToText, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';

/** A slow sink with a small buffer that records the most bytes ever waiting in it. */
function slowSink(): { stream: Writable; text: () => string; maxBuffered: () => number } {
  const chunks: string[] = [];
  let maxBuffered = 0;
  const stream = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      maxBuffered = Math.max(maxBuffered, stream.writableLength);
      chunks.push(chunk.toString('utf8'));
      setImmediate(callback);
    },
  });
  return { stream, text: () => chunks.join(''), maxBuffered: () => maxBuffered };
}

describe('Streaming output', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await copyFixture();
    // 400 more objects like the full fixture object, so the output is megabytes, not kilobytes.
    const template = await fixtureRecord('objects.jsonl', 1);
    delete template.partOfSet;
    const lines = Array.from({ length: 400 }, (_, i) => JSON.stringify({ ...template, objectNumber: `2000-${String(i).padStart(4, '0')}` }));
    await appendFile(join(dir, 'objects.jsonl'), lines.join('\n') + '\n');
  });
  afterAll(() => removeCopy(dir));

  it('honours back-pressure: a slow output never holds more than a few chunks', async () => {
    const pub = slowSink();
    const non = slowSink();
    const options: HarvestOptions = { baseUrl: BASE, imageHosts: [], validateImages: false };
    const report = await harvestExport(dir, { public: pub.stream, nonPublic: non.stream }, options);
    await new Promise<void>((resolve) => pub.stream.end(resolve));
    const total = Buffer.byteLength(pub.text());
    expect(total).toBeGreaterThan(8 * 1024 * 1024);
    // Without waiting for 'drain' the whole output would queue up in the stream.
    expect(pub.maxBuffered()).toBeLessThan(512 * 1024);
    expect(pub.text().split('\n').filter((l) => l !== '').length).toBe(report.publicQuads);
    const reference = await harvestToText(dir, { validateImages: false });
    expect(pub.text().length).toBe(reference.publicText.length);
  });

  it('reports progress for reading and writing, ending at the record count', async () => {
    const events: { phase: string; done: number; total?: number }[] = [];
    const { report } = await harvestToText(dir, { validateImages: false, onProgress: (p) => events.push(p) });
    const records = Object.values(report.records).reduce((a, b) => a + b, 0);
    expect(records).toBe(424);
    expect(events.filter((e) => e.phase === 'read').at(-1)).toEqual({ phase: 'read', done: records, total: records });
    expect(events.at(-1)).toEqual({ phase: 'write', done: records, total: records });
    expect(events.some((e) => e.phase === 'images')).toBe(false);
  });
});
