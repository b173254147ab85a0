/**
 * The JSON text a store has just written for a record, handed on to whoever answers with that
 * same record next. The embedded store keeps forms as their JSON text (`JsonSnapshotTable`), and
 * the HTTP layer writes a create's answer as JSON for its entity tag and its body: the same
 * bytes, worked out twice per create. The store notes its text here; the answer takes it.
 *
 * A few slots, newest over oldest, matched by identity: a record whose slot was taken by later
 * writes (many writes in flight) is serialised again, never answered with another's text. It
 * holds as long as a record handed to a store is not changed afterwards, which is how the use
 * cases treat records: values, replaced rather than edited.
 */
const SLOTS = 8;
const records: Array<object | undefined> = new Array<object | undefined>(SLOTS).fill(undefined);
const texts: Array<string | undefined> = new Array<string | undefined>(SLOTS).fill(undefined);
let newest = 0;

/** Notes that `text` is `JSON.stringify(record)`, byte for byte, as the store just wrote it. */
export function noteWrittenText(record: object, text: string): void {
  newest = (newest + 1) % SLOTS;
  records[newest] = record;
  texts[newest] = text;
}

/** The text noted for this very record, once (the slot is freed); undefined when none is. */
export function takeWrittenText(record: object): string | undefined {
  for (let i = 0; i < SLOTS; i++) {
    if (records[i] !== record) continue;
    const text = texts[i];
    records[i] = undefined;
    texts[i] = undefined;
    return text;
  }
  return undefined;
}
