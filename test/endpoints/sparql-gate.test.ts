/**
 * The concurrency cap of /sparql on its own (src/sparql/query-gate.ts): slots, the bounded queue, deadlines
 * counted from arrival, and a client leaving the queue. Tasks are promises the test settles by hand.
 */
import { GatewayTimeoutError, ServiceUnavailableError } from '../../src/http/errors.js';
import { QueryGate } from '../../src/sparql/query-gate.js';

/** A task the test finishes when it wants, recording the time budget it was given. */
function controlled(): { task: (remaining: number) => Promise<string>; finish: (value: string) => void; given: number[] } {
  let finish: (value: string) => void = () => undefined;
  const given: number[] = [];
  const done = new Promise<string>((resolve) => {
    finish = resolve;
  });
  return { task: (remaining) => (given.push(remaining), done), finish, given };
}

const later = (ms: number) => performance.now() + ms;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('QueryGate', () => {
  it('runs up to its limit at once and starts a waiting task when one finishes', async () => {
    const gate = new QueryGate(2, 4);
    const [a, b, c] = [controlled(), controlled(), controlled()];
    const results = [gate.run(later(10_000), 10_000, a.task), gate.run(later(10_000), 10_000, b.task), gate.run(later(10_000), 10_000, c.task)];
    await tick();
    expect([gate.active, gate.waiting]).toEqual([2, 1]);
    expect(c.given).toEqual([]);
    a.finish('a');
    await tick();
    expect(c.given).toHaveLength(1);
    b.finish('b');
    c.finish('c');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect([gate.active, gate.waiting]).toEqual([0, 0]);
  });

  it('answers 503 at once when the queue is full', async () => {
    const gate = new QueryGate(1, 1);
    const a = controlled();
    const running = gate.run(later(10_000), 10_000, a.task);
    const queued = gate.run(later(10_000), 10_000, controlled().task);
    await expect(gate.run(later(10_000), 10_000, controlled().task)).rejects.toBeInstanceOf(ServiceUnavailableError);
    a.finish('a');
    await running;
    queued.catch(() => undefined);
  });

  it('gives a waiting task only what is left of its deadline, and 504 when nothing is left', async () => {
    const gate = new QueryGate(1, 4);
    const a = controlled();
    const running = gate.run(later(10_000), 10_000, a.task);
    const b = controlled();
    const waiting = gate.run(later(300), 300, b.task);
    const expired = gate.run(later(20), 20, controlled().task);
    await expect(expired).rejects.toBeInstanceOf(GatewayTimeoutError);
    a.finish('a');
    await running;
    await tick();
    expect(b.given).toHaveLength(1);
    expect(b.given[0]).toBeLessThanOrEqual(300);
    b.finish('b');
    expect(await waiting).toBe('b');
  });

  it('lets a client that went away leave the queue', async () => {
    const gate = new QueryGate(1, 4);
    const a = controlled();
    const running = gate.run(later(10_000), 10_000, a.task);
    const leaving = new AbortController();
    const gone = gate.run(later(10_000), 10_000, controlled().task, leaving.signal);
    await tick();
    expect(gate.waiting).toBe(1);
    leaving.abort();
    await expect(gone).rejects.toThrow('the client went away');
    expect(gate.waiting).toBe(0);
    a.finish('a');
    await running;
    expect(gate.active).toBe(0);
  });

  it('makes a lazily given signal only when the task has to wait, and turns away a client already gone', async () => {
    const gate = new QueryGate(1, 4);
    let made = 0;
    const lazily = (controller: AbortController) => () => {
      made++;
      return controller.signal;
    };
    const a = controlled();
    const running = gate.run(later(10_000), 10_000, a.task, lazily(new AbortController()));
    expect(made).toBe(0);
    const left = new AbortController();
    left.abort();
    await expect(gate.run(later(10_000), 10_000, controlled().task, lazily(left))).rejects.toThrow('the client went away');
    expect([made, gate.waiting]).toEqual([1, 0]);
    a.finish('a');
    await running;
    expect(gate.active).toBe(0);
  });
});
