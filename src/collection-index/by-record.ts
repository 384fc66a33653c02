/**
 * The stored index of a generation written on a parent (docs/incremental.md, "The stored index, record by
 * record"): the record-scoped queries are asked of the records the parent's record answers cannot give (created,
 * changed, and the records that share a member with them), read from their members alone; every other record's
 * rows are the parent's. The admin-scoped queries are asked over the admin graph, read from the non-public file.
 * The answers are those of asking every record (record-answers.ts: rows in canonical order within a record).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { createGunzip, gunzip as gunzipCallback } from 'node:zlib';
import type { QueryLibrary } from '../queries/library.js';
import { generationFiles, type Generation } from '../store/generations.js';
import { readRecordIndex, type RecordIndex } from '../store/record-files.js';
import type { Iris } from '../vocab/iris.js';
import { byGraphAnswer, feedByGraph, type ByGraphOptions, type ByGraphOutcome } from './by-graph.js';
import { mergeRecordAnswers, readRecordAnswers, storedAnswersOf, writeRecordAnswers, type KeptRecordAnswers, type RecordAnswers } from './record-answers.js';

const gunzip = promisify(gunzipCallback);

/** A generation's parent, as its manifest names it (`details.changes.parent`), when it was written on one. */
export function parentId(generation: Pick<Generation, 'manifest'>): string | undefined {
  const changes = (generation.manifest.details as { changes?: { parent?: unknown } } | undefined)?.changes;
  return typeof changes?.parent === 'string' ? changes.parent : undefined;
}

/** What a generation written on a parent can start from: the parent's record answers and its own record index. */
export interface OnParent {
  parent: KeptRecordAnswers;
  index: RecordIndex;
}

/**
 * The record answers of `parent` and the record index of `generation` (written on it), or why the stored index is
 * to be asked of every record (no record index, the parent's answers missing, stale or damaged).
 */
export async function onParent(generation: Generation, parent: Generation): Promise<OnParent | { problem: string }> {
  if (parentId(generation) !== parent.id) return { problem: `not written on ${parent.id}` };
  const index = await readRecordIndex(generation.dir, generation.id);
  if (index === undefined) return { problem: 'no record index' };
  const answers = await readRecordAnswers(parent.dir, parent.id);
  if ('problem' in answers) return { problem: `the record answers of ${parent.id}: ${answers.problem}` };
  return { parent: answers, index };
}

/** How many public records were asked, and how many taken from the parent. */
export interface ByRecordCounts {
  asked: number;
  kept: number;
  /** Members of the public file read. */
  members: number;
}

/**
 * The answers of the queries `names` over `generation`, asking only the records `from.parent` cannot give (see
 * the file's comment). The outcome's `records` are the generation's record answers, digests included.
 */
export async function answerOnParent(
  deps: { queries: QueryLibrary; iris: Iris },
  generation: Generation,
  names: readonly string[],
  from: OnParent,
  options: ByGraphOptions = {},
): Promise<ByGraphOutcome & { counts?: ByRecordCounts }> {
  const started = performance.now();
  const { parent, index } = from;
  const before = new Map(parent.graphs.map((graph, i) => [graph, parent.digests[i]]));
  const members = index.public.filter((member) => member.records.some(([graph, digest]) => before.get(graph) !== digest));
  const files = generationFiles(generation.dir);
  const feed = feedByGraph(deps, names, options);
  try {
    const file = await open(files.public, 'r');
    try {
      for (const member of members) {
        const bytes = Buffer.alloc(member.length);
        await file.read(bytes, 0, member.length, member.offset);
        await feed.tap.public((await gunzip(bytes)).toString('utf8'));
      }
    } finally {
      await file.close();
    }
    // The admin graph is in the non-public file, among the non-public records' statements.
    for await (const chunk of createReadStream(files.nonPublic).pipe(createGunzip()).setEncoding('utf8')) await feed.tap.nonPublic(chunk as string);
    await feed.tap.end();
  } catch (err) {
    await feed.tap.abort();
    throw err;
  }
  const fresh = await feed.answers;
  if ('refused' in fresh) return fresh;
  const records = index.public.flatMap((member) => member.records.map(([graph, digest]) => [graph, digest] as const));
  const merged = mergeRecordAnswers(records, fresh.records, parent, generation.id);
  const byKey = new Map(storedAnswersOf(merged).map((answer) => [answer.key, answer]));
  const strings = merged.strings;
  const asked = members.reduce((n, member) => n + member.records.length, 0);
  return {
    ...fresh,
    answers: fresh.answers.map((answer) => byGraphAnswer(answer, byKey.get(answer.encoded.key) ?? answer.encoded, strings)),
    records: merged,
    strings,
    ms: { ...fresh.ms, total: performance.now() - started },
    counts: { asked, kept: records.length - asked, members: members.length },
  };
}

/**
 * Keeps `records` (the record answers computed with the stored index) beside `generation`, with each record's
 * digest from its record index, for the next harvest on it; nothing when it has no record index (made by `load`)
 * or its records are not those answered. Never throws: without the file the next harvest asks every record.
 */
export async function keepRecordAnswers(generation: Generation, records: RecordAnswers | KeptRecordAnswers): Promise<{ bytes: number; ms: number } | { problem: string }> {
  const started = performance.now();
  try {
    let kept: KeptRecordAnswers;
    if ('digests' in records) kept = records;
    else {
      const index = await readRecordIndex(generation.dir, generation.id);
      if (index === undefined) return { problem: 'no record index' };
      const listed = index.public.flatMap((member) => member.records);
      if (listed.length !== records.graphs.length || listed.some(([graph], i) => graph !== records.graphs[i])) {
        return { problem: 'the records answered are not those of the record index' };
      }
      kept = { ...records, generation: generation.id, digests: listed.map(([, digest]) => digest) };
    }
    return { bytes: await writeRecordAnswers(generation.dir, kept), ms: performance.now() - started };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}
