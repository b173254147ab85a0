import { expect } from 'chai';
import type { Db, Document } from 'mongodb';
import { collectionScans, hasCollectionScan, refuseTableScans } from './query-plans.js';

const ixscan = { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'tenant_id' } };
const collscan = { stage: 'SORT', inputStage: { stage: 'COLLSCAN', direction: 'forward' } };

/** A stand-in for the driver's Db: answers `explain` with `plans[i]` and keeps what it was asked. */
function fakeDb(plans: Document[], admin: (command: Document) => Promise<Document> = async () => ({ ok: 1 })) {
  const asked: Document[] = [];
  const db = {
    command: async (command: Document) => (asked.push(command), plans[asked.length - 1] ?? {}),
    admin: () => ({ command: admin }),
  };
  return { db: db as unknown as Db, asked };
}

describe('Query plans on a real server (the explain half of the index check)', () => {
  it('finds a collection scan in the chosen plan, in the classic, the SBE and the aggregation formats, and ignores rejected plans', () => {
    expect(hasCollectionScan({ queryPlanner: { winningPlan: ixscan, rejectedPlans: [collscan] } })).to.equal(false);
    expect(hasCollectionScan({ queryPlanner: { winningPlan: collscan } })).to.equal(true);
    expect(hasCollectionScan({ queryPlanner: { winningPlan: { queryPlan: collscan, slotBasedPlan: {} } } })).to.equal(true);
    expect(hasCollectionScan({ stages: [{ $cursor: { queryPlanner: { winningPlan: ixscan } } }, { $group: {} }] })).to.equal(false);
    expect(hasCollectionScan({ stages: [{ $cursor: { queryPlanner: { winningPlan: { stage: 'COLLSCAN' } } } }] })).to.equal(true);
  });

  it('explains each query command without the driver’s session fields and names those that scan', async () => {
    const { db, asked } = fakeDb([{ queryPlanner: { winningPlan: ixscan } }, { stages: [{ $cursor: { queryPlanner: { winningPlan: collscan } } }] }]);
    const sent = [
      { find: 'forms', filter: { tenantId: 'a' }, lsid: { id: 1 }, $db: 'cms', $clusterTime: {}, txnNumber: 3 },
      { insert: 'forms', documents: [{}] },
      { aggregate: 'notification_outbox', pipeline: [{ $group: { _id: '$status' } }], cursor: { batchSize: 10 }, $db: 'cms' },
    ];
    expect(await collectionScans(db, sent)).to.deep.equal(['aggregate notification_outbox']);
    expect(asked).to.deep.equal([
      { explain: { find: 'forms', filter: { tenantId: 'a' } }, verbosity: 'queryPlanner' },
      { explain: { aggregate: 'notification_outbox', pipeline: [{ $group: { _id: '$status' } }], cursor: {} }, verbosity: 'queryPlanner' },
    ]);
  });

  it('sets notablescan and restores the value it found, or answers null when the server refuses', async () => {
    const admin: Document[] = [];
    const { db } = fakeDb([], async (command) => (admin.push(command), command.getParameter ? { notablescan: false, ok: 1 } : { ok: 1 }));
    const restore = await refuseTableScans(db);
    await restore?.();
    expect(admin).to.deep.equal([{ getParameter: 1, notablescan: 1 }, { setParameter: 1, notablescan: true }, { setParameter: 1, notablescan: false }]);
    const refused = fakeDb([], async () => {
      throw new Error('not authorized on admin to execute command');
    });
    expect(await refuseTableScans(refused.db)).to.equal(null);
  });
});
