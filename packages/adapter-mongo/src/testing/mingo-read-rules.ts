/**
 * Part of the TEST DOUBLE (mingo-collection-double.ts): how reads shape what they return —
 * projections as the server applies them (`_id` first, included unless excluded), and the
 * aggregation stages the double accepts, evaluated by mingo when the cursor is read.
 */
import type { Document } from 'mongodb';
import { aggregate, find } from 'mingo';

/** The stages the repositories use and the double's spec covers; any other stage throws. */
const AGGREGATION_STAGES = ['$match', '$group', '$sort', '$limit', '$project'] as const;

/** Applies an inclusion or exclusion projection to one document; `_id` comes first, as the server returns it. */
export function project(document: Document, projection: Document | undefined): Document {
  if (!projection) return document;
  const [projected] = find([document], {}, projection).all() as Document[];
  if (!projected || !('_id' in projected)) return projected ?? {};
  const { _id, ...fields } = projected;
  return { _id, ...fields };
}

/** Runs a pipeline of the accepted stages over the documents (mingo evaluates every operator). */
export function runPipeline(documents: readonly Document[], pipeline: readonly Document[]): Document[] {
  for (const stage of pipeline) {
    const names = Object.keys(stage);
    if (names.length !== 1 || !(AGGREGATION_STAGES as readonly string[]).includes(names[0]!)) {
      throw new Error(`MingoCollectionDouble.aggregate does not support the stage ${JSON.stringify(names)}`);
    }
  }
  return aggregate([...documents], [...pipeline]) as Document[];
}
