/**
 * One receiver's pending jobs in the order they fall due (`nextAttemptAt`, then arrival), so that
 * a claim reads the due head of each receiver and not the whole backlog (decision 0825: a backlog
 * to a receiver that was down made every pass of the embedded webhook dispatcher walk all of it,
 * and every request of every tenant wait for it).
 *
 * A binary heap of entries `(at, arrival, id)`. An entry is never updated in place: a job whose
 * due time changes is pushed again, and an entry whose job is gone or due at another time by now
 * is stale, dropped when it comes to the top. So each change costs one push, and a claim pops
 * only the entries it looks at.
 */

interface Entry {
  readonly at: number;
  readonly arrival: number;
  readonly id: string;
}

/** What a claim makes of the job an entry names: take it, keep it for later (it is leased), or drop a stale entry. */
export type DueVerdict = 'take' | 'keep' | 'stale';

export class DueQueue {
  readonly #heap: Entry[] = [];
  #arrivals = 0;

  /** Whether no entry is left (stale ones count until they are dropped). */
  get isEmpty(): boolean {
    return this.#heap.length === 0;
  }

  /** `id` falls due at `at`. */
  push(id: string, at: Date): void {
    this.#insert({ at: at.getTime(), arrival: (this.#arrivals += 1), id });
  }

  /**
   * Up to `max` ids due by `now`, in due order, that `verdict` takes. The entries taken or kept go
   * back as they were (a claim that takes a job changes its lease, not its due time); stale ones
   * are dropped on the way.
   */
  due(now: Date, max: number, verdict: (id: string, at: number) => DueVerdict): string[] {
    const taken: string[] = [];
    const back: Entry[] = [];
    const seen = new Set<string>();
    const until = now.getTime();
    while (taken.length < max && this.#heap.length > 0 && this.#heap[0]!.at <= until) {
      const entry = this.#pop();
      // A second entry of one job at one time (pushed twice) is as stale as an outdated one.
      const answer = seen.has(entry.id) ? 'stale' : verdict(entry.id, entry.at);
      if (answer === 'stale') continue;
      seen.add(entry.id);
      back.push(entry);
      if (answer === 'take') taken.push(entry.id);
    }
    for (const entry of back) this.#insert(entry);
    return taken;
  }

  /**
   * Takes out, for good, every entry due before `cut` (strictly), in due order, and answers the
   * ids `live` says are still due at their entry's time (each once); the others were stale. What
   * a prune of finished jobs reads: those it deletes, and no entry due later.
   */
  takeBefore(cut: Date, live: (id: string, at: number) => boolean): string[] {
    const taken = new Set<string>();
    const until = cut.getTime();
    while (this.#heap.length > 0 && this.#heap[0]!.at < until) {
      const entry = this.#pop();
      if (!taken.has(entry.id) && live(entry.id, entry.at)) taken.add(entry.id);
    }
    return [...taken];
  }

  #insert(entry: Entry): void {
    const heap = this.#heap;
    let index = heap.push(entry) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = entry;
  }

  #pop(): Entry {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = last;
    return top;
  }
}

const before = (a: Entry, b: Entry): boolean => a.at < b.at || (a.at === b.at && a.arrival < b.arrival);

/** Pushes `id` due at `at` onto the queue of `key` (a channel, a webhook), made on its first job. */
export function pushDue(queues: Map<string, DueQueue>, key: string, id: string, at: Date): void {
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = new DueQueue()));
  queue.push(id, at);
}
