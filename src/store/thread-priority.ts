/**
 * A store worker's thread yields the CPU to the rest of the service while it runs a client's long query
 * (docs/architecture.md, "Store workers"). On two cores, a runaway `/sparql` query holds one core until its
 * deadline; at the same priority it also takes its share of the other one from the main thread and the worker
 * answering REST queries. Linux keeps a nice value per thread (setpriority(2): "under the current Linux/NPTL
 * implementation of POSIX threads, the nice value is a per-thread attribute"), so the main thread lowers the
 * priority of that one worker thread, by its thread id, and restores it when the query ends.
 *
 * Restoring is a raise of priority, which Linux allows only with CAP_SYS_NICE (or RLIMIT_NICE): a service
 * without it keeps the lowered priority on that worker thread for the thread's life. That is the safe side:
 * the worker still answers, at a lower priority only when the CPU is contended. Elsewhere than on Linux
 * (no /proc/thread-self) nothing changes.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** How long a client's query runs at the usual priority: most SPARQL queries end before. */
export const LOWER_PRIORITY_AFTER_MS = 100;

/**
 * The nice value of a worker thread running a client's long query: the lowest (0 is the usual). Linux's scheduler
 * weighs a nice-19 thread 15 against 1,024 for the service's threads (nice 10: 110), so the runaway takes what
 * they leave. Measured at 50k objects, REST p99 during a runaway was 2.59–2.87× idle at 19 and 2.41–3.06× at 10:
 * within this machine's noise; the lower weight is the intent.
 */
export const LONG_QUERY_NICE = 19;

/** The calling thread's id on Linux (the link /proc/thread-self → `<pid>/task/<tid>`); undefined elsewhere. */
export function currentThreadId(): number | undefined {
  try {
    const match = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Sets the nice value of a thread of this process; false when the system refuses. */
export function setThreadNice(threadId: number, nice: number): boolean {
  try {
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}
