/**
 * A `SnapshotTable` whose rows are kept as JSON text, the way a document store keeps documents,
 * for records created in bulk and then mostly left alone (forms: decision 0617). A read parses
 * the text into a deeply frozen snapshot; the snapshots of the last `recentLimit` rows read are
 * kept, so a row read over and over is parsed once and every reader gets the same snapshot. The
 * oldest read goes first (a hit does not move a row up: that would cost every read two more map
 * operations). Rows are plain JSON data plus Dates under the top-level `dateKeys`. `put`
 * replaces a row's text and drops its recent snapshot, so the next read parses the new text.
 */
import { freezeInPlace, markSnapshot } from '../shared/frozen-snapshots.js';
import { recordText } from '../shared/record-text.js';
import { noteWrittenText } from '../shared/written-texts.js';
import { frozenDate } from './snapshot-table.js';

export class JsonSnapshotTable<R extends object> {
  // TypeScript-private rather than #private, as in SnapshotTable: the store fingerprint reads them.
  private readonly texts = new Map<string, string>();
  /**
   * The recent reads: a cache of what `texts` holds, which any read (a refused request's too)
   * fills. Non-enumerable, so the store fingerprint, which compares stored data, leaves it out.
   */
  private declare readonly recent: Map<string, R>;

  constructor(
    private readonly dateKeys: readonly string[],
    private readonly recentLimit: number,
  ) {
    Object.defineProperty(this, 'recent', { value: new Map<string, R>(), enumerable: false });
  }

  has(key: string): boolean {
    return this.texts.has(key);
  }

  /** Stores the record's text when `key` is free (a copy: the caller's later changes stay its own); false when taken. */
  insert(key: string, record: R): boolean {
    if (this.texts.has(key)) return false;
    this.texts.set(key, writtenJson(record));
    return true;
  }

  /** Stores the record's text under `key`, replacing what was there; the next read parses it. */
  put(key: string, record: R): void {
    this.texts.set(key, writtenJson(record));
    this.recent.delete(key);
  }

  delete(key: string): boolean {
    this.recent.delete(key);
    return this.texts.delete(key);
  }

  /** The row's snapshot: deeply frozen, shared with every reader while it is among the recent reads. */
  get(key: string): R | undefined {
    const recent = this.recent.get(key);
    if (recent !== undefined) return recent;
    const text = this.texts.get(key);
    if (text === undefined) return undefined;
    const snapshot = markSnapshot(frozenRecordFromJson<R>(text, this.dateKeys));
    this.recent.set(key, snapshot);
    if (this.recent.size > this.recentLimit) this.recent.delete(this.recent.keys().next().value!);
    return snapshot;
  }
}

/** `recordText`, noted for the answer that writes the same record next (`written-texts`). */
function writtenJson(record: object): string {
  const text = recordText(record);
  noteWrittenText(record, text);
  return text;
}

/**
 * The deeply frozen record kept as `recordText(record)`: the top-level `dateKeys`
 * become frozen Dates again, everything else is the parsed data, frozen in place (it is fresh
 * from the parser, shared with no one). A member set to `undefined` does not come back, and
 * neither does any other kind of object.
 */
export function frozenRecordFromJson<T>(text: string, dateKeys: readonly string[]): T {
  const record = JSON.parse(text) as Record<string, unknown>;
  for (const key of dateKeys) {
    const value = record[key];
    if (typeof value === 'string') record[key] = frozenDate(new Date(value));
  }
  return freezeInPlace(record) as T;
}
