/**
 * The text of a submission export (§6.6): CSV (RFC 4180, formula-leading cells escaped) or NDJSON,
 * written batch by batch as the caller reads it, in chunks of about 64 K characters.
 */
import { isoTimestamp } from '../shared/iso-timestamp.js';
import { isDeeplyFrozen, viewPerSnapshot } from '../shared/frozen-snapshots.js';
import { fieldsOf, type Form } from './form.js';
import { relationValue } from './relation-holders.js';
import { submissionView, type Submission } from './submission.js';

/** Submissions an export reads per step. */
export const EXPORT_BATCH = 500;

/**
 * Past this many characters the text so far is handed on: the answer's backpressure then paces the
 * export record by record, and a batch of large submissions (500 of up to 1 MiB each) is never one
 * string (an export of 250 MB held +490 MB while it ran; audit, 2026-12-03).
 */
const CHUNK_CHARACTERS = 64 * 1024;

/**
 * Each batch's records, written by the writer `writerFor` gives that batch, joined and handed on
 * every `CHUNK_CHARACTERS`.
 */
async function* inChunks(batches: AsyncIterable<Submission[]>, writerFor: (batch: Submission[]) => (submission: Submission) => string): AsyncGenerator<string> {
  for await (const batch of batches) {
    const write = writerFor(batch);
    let text = '';
    for (const submission of batch) {
      text += write(submission);
      if (text.length >= CHUNK_CHARACTERS) {
        yield text;
        text = '';
      }
    }
    if (text !== '') yield text;
  }
}

const ndjsonRecord = (submission: Submission): string => `${JSON.stringify(submissionView(submission))}\n`;

/** The NDJSON export: one submission view per line, as its single read answers it. */
export function ndjsonChunks(batches: AsyncIterable<Submission[]>): AsyncGenerator<string> {
  return inChunks(batches, () => ndjsonRecord);
}

/** The CSV export: a header row, then a record per submission with the form's fields as columns. */
export async function* csvChunks(form: Form, batches: AsyncIterable<Submission[]>): AsyncGenerator<string> {
  const columns = csvColumns(form);
  yield csvRow(['id', 'createdAt', 'submittedBy', ...columns.fields.map((field) => field.name)]);
  let first = true;
  yield* inChunks(batches, (batch) => {
    // Only an export that fits one batch keeps its records' texts: a larger one streams, and keeps
    // memory flat (§6.6) by writing each record afresh.
    const remember = first && batch.length < EXPORT_BATCH;
    first = false;
    return remember ? (submission) => csvRecord(submission, columns) : (submission) => csvRecordText(submission, columns);
  });
}

/** The columns after `id,createdAt,submittedBy`: the form's fields, in order. */
interface CsvColumns {
  readonly fields: readonly { readonly name: string; readonly relation: boolean }[];
}

/** One object per form snapshot (a fresh one per call for a form that is not frozen): it keys the rows below. */
const csvColumns = viewPerSnapshot((form: Form): CsvColumns => ({ fields: fieldsOf(form).map((field) => ({ name: field.name, relation: field.type === 'relation' })) }));

/**
 * Each deeply frozen submission's CSV record, with the columns it was written under: a snapshot
 * exported again under the same form snapshot reuses it, as a read reuses a snapshot's JSON text
 * (decision 0616). Only for exports that fit one batch (`csvChunks`). Remembered the second time
 * it is written, so an export made once keeps a mark per record, not its text; a text lives as
 * long as its snapshot. Decision 0774.
 */
const rememberedRecords = new WeakMap<Submission, { readonly columns: CsvColumns; readonly text: string }>();
/** The longest record text kept (characters): a few times a typical record's ~200. */
const REMEMBERED_RECORD_MAX = 2048;
/** Snapshots written once under the columns beside them. */
const writtenOnce = new WeakMap<Submission, CsvColumns>();

function csvRecord(submission: Submission, columns: CsvColumns): string {
  const remembered = rememberedRecords.get(submission);
  if (remembered?.columns === columns) return remembered.text;
  const text = csvRecordText(submission, columns);
  if (!Object.isFrozen(columns) || !Object.isFrozen(submission)) return text; // a form or submission that can change (MongoDB's)
  // A long record is not kept: its text would double what its submission takes for as long as it lives.
  if (text.length > REMEMBERED_RECORD_MAX) return text;
  if (writtenOnce.get(submission) !== columns) writtenOnce.set(submission, columns);
  else if (isDeeplyFrozen(submission)) {
    writtenOnce.delete(submission);
    rememberedRecords.set(submission, { columns, text: flat(text) });
  }
  return text;
}

/**
 * The same text, flat. V8 keeps a string built piece by piece as a tree of its pieces, which every
 * answer holding the string walks again when it writes it out (for a CSV record, more than
 * writing it took); reading a character makes V8 flatten the tree, once, in place.
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** The record written cell by cell into one string: a row of arrays, maps and joins was most of an export's time. */
function csvRecordText(submission: Submission, columns: CsvColumns): string {
  let text = `${csvCell(submission.id)},${isoTimestamp(submission.createdAt)},${csvCell(submission.submittedBy ?? '')}`;
  for (const field of columns.fields) {
    text += `,${csvCell(field.relation ? relationCell(submission, field.name) : valueCell(submission, field.name))}`;
  }
  return `${text}\r\n`;
}

function relationCell(submission: Submission, name: string): string {
  const related = relationValue(submission, name);
  return Array.isArray(related) ? related.join(';') : (related ?? '');
}

function valueCell(submission: Submission, name: string): string {
  return Object.hasOwn(submission.values, name) ? cellText(submission.values[name]) : '';
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Cells a spreadsheet would run as a formula (OWASP "CSV injection"): the text is kept, behind a `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell that needs a look: a formula start, or a comma, quote or line break to quote. */
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;

/** One RFC 4180 record: formula-leading cells escaped, cells with a comma, quote or line break quoted; CRLF. */
export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A comma, quote or line break: the cell is quoted. */
const TO_QUOTE = /[",\r\n]/;

/** One cell as `csvRow` writes it; most cells need neither escape nor quotes, and cost one test. */
function csvCell(cell: string): string {
  if (!NEEDS_CARE.test(cell)) return cell;
  if (FORMULA_START.test(cell)) {
    const text = `'${cell}`;
    return TO_QUOTE.test(text) ? quoted(text) : text;
  }
  return quoted(cell); // it needed care without a formula start: it holds a comma, quote or line break
}

function quoted(text: string): string {
  return `"${text.includes('"') ? text.replace(/"/g, '""') : text}"`;
}
