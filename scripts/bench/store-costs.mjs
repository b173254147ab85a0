// The embedded store's costs that must not grow with what a call neither returns nor changes
// (decision 0837): each check times a repository call of the built core in this process, before
// and after many unrelated records are stored, or a cascade at N and 10 × N records. A check
// passes when the call costs at most ten times as much with the unrelated records (plus a
// millisecond, a quarter for the counts), or the cascade less than thirty times as much at ten
// times the records (plus 50 ms). A walk over 20,000 records costs several milliseconds, and a
// cascade that moves the rest of an order for each record it takes grows a hundredfold; the
// margins are wide so that a noisy machine does not fail a check, not to judge small changes.
//   npm run bench:store            (builds first)   node scripts/bench/store-costs.mjs [--only text]
// Writes bench-results/store-costs.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const core = (path) => import(join(root, 'packages', 'core', 'dist', path));
const { KeysetIndex } = await core('memory/keyset-index.js');
const { MemoryNotificationOutbox } = await core('memory/memory-notification-outbox.js');
const { MemoryWebhookDeliveryOutbox } = await core('memory/memory-webhook-delivery.outbox.js');
const { MemorySubmissionRepository } = await core('memory/memory-submission.repository.js');
const { MemoryCommentRepository } = await core('memory/memory-comment.repository.js');
const { MemoryArticleRepository } = await core('memory/memory-article.repository.js');
const { MemoryGuestRateLimiter } = await core('memory/memory-guest-rate-limiter.js');
const { sampleNotificationJob } = await core('testing/notification-records.js');
const { newId } = await core('shared/ids.js');

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

/** The fastest of `runs` timed runs of `operation`, in ms: what a busy machine adds is left out. */
async function fastestRun(operation, runs = 7) {
  let fastest = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await operation();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

/** A check of a call against unrelated records: its fastest run before and after they are stored. */
const independent = (name, slackMs, setUp) => ({
  name,
  criterion: `with the unrelated records < 10 × without + ${slackMs} ms`,
  async measure() {
    const { operation, addUnrelated } = await setUp();
    const before = await fastestRun(operation);
    await addUnrelated();
    const after = await fastestRun(operation);
    return { small: before, large: after, pass: after < before * 10 + slackMs };
  },
});

/** A check of a cascade over `n` and `10 n` records: `timeFor(n)` answers the ms its work took. */
const linear = (name, n, timeFor) => ({
  name,
  criterion: `${(10 * n).toLocaleString('en')} records < 30 × ${n.toLocaleString('en')} + 50 ms`,
  async measure() {
    const small = Math.min(await timeFor(n), await timeFor(n), await timeFor(n));
    const large = await timeFor(10 * n);
    return { small, large, pass: large < 30 * small + 50 };
  },
});

const NOW = new Date('2026-03-01T10:00:00.000Z');
/** Jobs of another tenant's forms: what a call in `acme` must not read. */
const otherJobs = (outbox, count, now = NOW) => async () => {
  const jobs = Array.from({ length: count }, () => sampleNotificationJob({ tenantId: 'other', message: { ...sampleNotificationJob().message, formId: newId(), submissionId: newId() } }));
  await outbox.enqueue(jobs, now);
};
const delivery = (webhookId, eventId = newId()) => ({ tenantId: 'acme', webhookId, eventId, type: 'form.submitted', witness: { kind: 'form', id: newId() }, trace: null });
/** Stages and confirms `count` deliveries (of one webhook, or each of its own) at `now`. */
async function confirmed(outbox, count, now, webhookId) {
  const deliveries = Array.from({ length: count }, () => delivery(webhookId ?? newId()));
  await outbox.stage(deliveries, now);
  for (const { eventId } of deliveries) await outbox.confirm('acme', eventId, '{}', now);
}
const millisecondsApart = (base, i) => new Date(base + i);
/** An article of `acme` created at `createdAt`, in `categoryId`. */
const article = (createdAt, categoryId) => ({ id: newId(createdAt, 'acme'), tenantId: 'acme', title: 't', content: '', authorId: null, categoryId, subCategoryId: null, reactionsEnabled: true, likes: 0, dislikes: 0, createdAt, updatedAt: createdAt });

const CHECKS = [
  independent("a submission's notification jobs listed and dropped, among 20,000 other jobs", 1, async () => {
    const outbox = new MemoryNotificationOutbox();
    const { formId, submissionId } = sampleNotificationJob().message;
    await outbox.enqueue([sampleNotificationJob(), sampleNotificationJob({ channel: 'push', recipients: [] })], NOW);
    return {
      operation: async () => {
        await outbox.listBySubmission('acme', formId, submissionId);
        await outbox.dropJobs('acme', formId, newId());
        await outbox.dropJobs('acme', newId());
      },
      addUnrelated: otherJobs(outbox, 20_000),
    };
  }),
  independent('a claim of the due notification jobs, among 20,000 finished or later ones', 1, async () => {
    const outbox = new MemoryNotificationOutbox();
    const earlier = new Date(NOW.getTime() - 1_000);
    const later = new Date(NOW.getTime() + 3_600_000);
    await outbox.enqueue([sampleNotificationJob(), sampleNotificationJob({ channel: 'push', recipients: [] })], NOW);
    return {
      // No lease: every run claims the two due jobs again.
      operation: () => outbox.claimDue(NOW, 0, 10),
      addUnrelated: async () => {
        await otherJobs(outbox, 20_000, earlier)();
        const claimed = await outbox.claimDue(earlier, 60_000, 20_000);
        for (const [i, job] of claimed.entries()) await outbox.complete(job.id, i % 2 === 0 ? { status: 'sent' } : { status: 'retry', error: 'HTTP 500', nextAttemptAt: later }, earlier);
      },
    };
  }),
  independent('a prune of finished notification jobs, among 20,000 finished later and kept', 1, async () => {
    const outbox = new MemoryNotificationOutbox();
    const old = new Date(NOW.getTime() - 7_200_000);
    const cut = new Date(NOW.getTime() - 3_600_000);
    return {
      // One job finished two hours ago, pruned at a cut of an hour ago (decision 0837).
      operation: async () => {
        await outbox.enqueue([sampleNotificationJob()], old);
        const [job] = await outbox.claimDue(old, 60_000, 1);
        await outbox.complete(job.id, { status: 'sent' }, old);
        if ((await outbox.pruneFinished(cut)) !== 1) throw new Error('the old job was not pruned');
      },
      addUnrelated: async () => {
        await otherJobs(outbox, 20_000)();
        for (const job of await outbox.claimDue(NOW, 60_000, 20_000)) await outbox.complete(job.id, { status: 'sent' }, NOW);
      },
    };
  }),
  independent('notification jobs counted by status (GET /metrics), among 20,000', 0.25, async () => {
    const outbox = new MemoryNotificationOutbox();
    await outbox.enqueue([sampleNotificationJob()], NOW);
    return { operation: () => outbox.countByStatus(), addUnrelated: otherJobs(outbox, 20_000) };
  }),
  independent('webhook deliveries counted by status (GET /metrics), among 40,000', 0.25, async () => {
    const outbox = new MemoryWebhookDeliveryOutbox();
    await confirmed(outbox, 1, NOW);
    return { operation: () => outbox.countByStatus(), addUnrelated: () => confirmed(outbox, 40_000, NOW) };
  }),
  independent("a delivery's outcome, its prune and the webhook's log, behind a backlog of 40,000", 1, async () => {
    const outbox = new MemoryWebhookDeliveryOutbox();
    const at = (ms) => new Date(NOW.getTime() + ms);
    const webhookId = newId();
    const deliverOldest = async () => {
      const [claimed] = await outbox.claimDue(at(10), 60_000, 1);
      await outbox.complete(claimed.id, { status: 'delivered', statusCode: 204 }, at(10));
    };
    await confirmed(outbox, 40, at(0), webhookId);
    for (let i = 0; i < 6; i += 1) await deliverOldest();
    await confirmed(outbox, 100, at(1), webhookId);
    return {
      // One more delivery final, the prune it calls for (more than `keep` final), the log's page.
      operation: async () => {
        await deliverOldest();
        await outbox.prune('acme', webhookId, 5);
        await outbox.listByWebhook('acme', webhookId, 100);
      },
      addUnrelated: () => confirmed(outbox, 40_000, at(2), webhookId),
    };
  }),
  independent("an erased submission's id taken out of a holder form's relations, among 50,000 holders of other ids", 1, async () => {
    const submissions = new MemorySubmissionRepository();
    const holder = { formId: newId(), fieldName: 'links' };
    const [gone, other] = [newId(), newId()];
    const submission = (relations) => ({ id: newId(), tenantId: 'acme', formId: holder.formId, values: {}, relations, submittedBy: null, createdAt: NOW, updatedAt: NOW });
    const holding = submission({});
    await submissions.insert(holding);
    return {
      // Connected again, then taken out as the erasure of `gone` does (decision 0838).
      operation: async () => {
        await submissions.connectRelation({ tenantId: 'acme', submissionId: holding.id, fieldName: 'links', relatedId: gone, multiple: true, cap: 500, now: NOW });
        if ((await submissions.removeRelationsTo('acme', holder, [gone])) !== 1) throw new Error('the holder was not found');
      },
      addUnrelated: async () => {
        for (let i = 0; i < 50_000; i += 1) await submissions.insert(submission({ links: [other] }));
      },
    };
  }),
  independent("2,048 guest writes counted, among 1,000,000 other guests' counters of the same window", 1, async () => {
    const limiter = new MemoryGuestRateLimiter();
    const window = (guestId) => ({ tenantId: 'acme', guestId, startsAt: NOW, endsAt: new Date(NOW.getTime() + 60_000) });
    return {
      // As many hits as made the old limiter walk every counter twice (decision 0837).
      operation: async () => {
        for (let i = 0; i < 2_048; i += 1) await limiter.hit(window('guest-measured'));
      },
      addUnrelated: async () => {
        for (let i = 0; i < 1_000_000; i += 1) await limiter.hit(window(`guest-${i}`));
      },
    };
  }),
  linear("a deleted webhook's deliveries removed", 5_000, async (n) => {
    const outbox = new MemoryWebhookDeliveryOutbox();
    const webhookId = newId();
    for (let i = 0; i < n; i += 1) await confirmed(outbox, 1, millisecondsApart(Date.UTC(2026, 3, 1), i), webhookId);
    const start = performance.now();
    await outbox.removeByWebhook('acme', webhookId);
    return performance.now() - start;
  }),
  ...['in batches of 500, oldest first', 'at once'].map((how) =>
    linear(`a form's submissions deleted ${how}`, 5_000, async (n) => {
      const repository = new MemorySubmissionRepository();
      const formId = newId();
      const ids = [];
      for (let i = 0; i < n; i += 1) {
        const createdAt = millisecondsApart(Date.UTC(2026, 0, 1), i);
        ids.push(newId(createdAt, 'acme'));
        await repository.insert({ id: ids[i], tenantId: 'acme', formId, values: {}, relations: {}, submittedBy: null, createdAt, updatedAt: createdAt });
      }
      const start = performance.now();
      if (how === 'at once') await repository.deleteByForm('acme', formId);
      else for (let i = 0; i < n; i += 500) await repository.deleteByIds('acme', ids.slice(i, i + 500));
      return performance.now() - start;
    }),
  ),
  linear("an article's comments deleted", 5_000, async (n) => {
    const comments = new MemoryCommentRepository();
    const articleId = newId();
    for (let i = 0; i < n; i += 1) {
      const createdAt = millisecondsApart(Date.UTC(2026, 0, 1), i);
      const status = i % 2 === 0 ? 'approved' : 'pending';
      await comments.insert({ id: newId(createdAt, 'acme'), tenantId: 'acme', articleId, content: 'x', authorName: null, userId: null, guestId: null, status, approvedAt: null, approvedBy: null, likes: 0, dislikes: 0, createdAt, updatedAt: createdAt });
    }
    const start = performance.now();
    await comments.deleteByArticle('acme', articleId);
    return performance.now() - start;
  }),
  linear("a category's articles refiled under a parent with as many newer ones, and back", 3_000, async (n) => {
    const articles = new MemoryArticleRepository();
    const [category, parent] = [newId(), newId()];
    for (let i = 0; i < n; i += 1) await articles.insert(article(millisecondsApart(Date.UTC(2026, 0, 1), i), category));
    for (let i = 0; i < n; i += 1) await articles.insert(article(millisecondsApart(Date.UTC(2027, 0, 1), i), parent));
    const start = performance.now();
    await articles.refileCategory('acme', category, parent);
    await articles.refileCategory('acme', category, null);
    return performance.now() - start;
  }),
  linear("a tenant's article totals listed in pages of 500, as the recount reads them", 5_000, async (n) => {
    const articles = new MemoryArticleRepository();
    for (let i = 0; i < n; i += 1) {
      const createdAt = millisecondsApart(Date.UTC(2026, 0, 1), i);
      await articles.insert(article(createdAt, null));
    }
    const start = performance.now();
    let listed = 0;
    for (let afterId = null; ; ) {
      const page = await articles.listTotals('acme', afterId, 500);
      listed += page.length;
      if (page.length < 500) break;
      afterId = page[page.length - 1].id;
    }
    if (listed !== n) throw new Error(`listed ${listed} of ${n} articles`);
    return performance.now() - start;
  }),
  independent('an entry removed and put back in the middle of an order, among 100,000 more', 1, async () => {
    const index = new KeysetIndex();
    const positions = Array.from({ length: 1_000 }, (_, i) => ({ createdAt: new Date(2 * i), id: newId() }));
    for (const position of positions) index.add('g', position, position.id);
    const middle = positions[500];
    return {
      operation: () => {
        for (let i = 0; i < 100; i += 1) {
          index.remove('g', middle);
          index.add('g', middle, middle.id);
        }
      },
      // Half older than the middle entry, half newer: the order grows on both sides of it.
      addUnrelated: () => {
        for (let i = 0; i < 100_000; i += 1) index.add('g', { createdAt: new Date(i % 2 === 0 ? 1 : 10_000 + i), id: newId() }, 'x');
      },
    };
  }),
];

const rows = [];
let failed = 0;
for (const check of CHECKS.filter((check) => !only || check.name.includes(only))) {
  const { small, large, pass } = await check.measure();
  if (!pass) failed += 1;
  rows.push(`| ${check.name} | ${small.toFixed(3)} | ${large.toFixed(3)} | ${check.criterion} | ${pass ? 'PASS' : 'FAIL'} |`);
  process.stderr.write(`${rows[rows.length - 1]}\n`);
}
const report = [
  '# Embedded store: costs that must not grow with unrelated records',
  '',
  `${new Date().toISOString()} · ${cpus()[0]?.model.trim() ?? 'unknown CPU'} × ${cpus().length} · Node ${process.version} · fastest of 7 runs (of 3 at N for a cascade)`,
  '',
  '| call | ms without the unrelated records, or at N | ms with them, or at 10 × N | passes when | result |',
  '|---|---:|---:|---|---|',
  ...rows,
  '',
].join('\n');
mkdirSync(join(root, 'bench-results'), { recursive: true });
writeFileSync(join(root, 'bench-results', 'store-costs.md'), report);
process.stdout.write(report);
process.exitCode = failed > 0 ? 1 : 0;
