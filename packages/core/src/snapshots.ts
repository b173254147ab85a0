/**
 * @cms/core/snapshots — the embedded store's speed helpers, off the main entry point: for an
 * inbound adapter that reuses the work done on deeply frozen records (adapter-koa writes their
 * JSON once: decision 0616), and for a service writing its own in-memory adapter on the same
 * seam as core's (`SnapshotTable`, decision 0721). Domain code needs none of it.
 */
export { isDeeplyFrozen, isPlainContainer, viewPerSnapshot, type SnapshotView } from './shared/frozen-snapshots.js';
export { SnapshotTable, type RowSlot } from './memory/snapshot-table.js';
export { JsonSnapshotTable } from './memory/json-snapshot-table.js';
export { noteWrittenText, takeWrittenText } from './shared/written-texts.js';
export { recordText } from './shared/record-text.js';
