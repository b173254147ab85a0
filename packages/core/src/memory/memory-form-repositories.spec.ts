import { expect } from 'chai';
import { formRecord, submissionRecord } from '../testing/index.js';
import { formRepositoryContract, submissionRepositoryContract } from '../testing/contracts/index.js';
import { isDeeplyFrozen } from '../shared/frozen-snapshots.js';
import { takeWrittenText } from '../shared/written-texts.js';
import { MemoryFormRepository } from './memory-form.repository.js';
import { MemorySubmissionRepository } from './memory-submission.repository.js';

formRepositoryContract('memory', async () => ({ repository: new MemoryFormRepository() }));
submissionRepositoryContract('memory', async () => ({ repository: new MemorySubmissionRepository() }));

describe('MemoryFormRepository (kept as JSON text, recent reads as records)', () => {
  it('hands every reader one deeply frozen record while the form is among the recent reads', async () => {
    const forms = new MemoryFormRepository();
    const form = formRecord('acme', 'contact');
    await forms.insert(form);
    const first = await forms.findById('acme', form.id);
    expect(first).to.deep.equal(form);
    expect(isDeeplyFrozen(first)).to.equal(true);
    expect(await forms.findById('acme', form.id)).to.equal(first);
  });

  it('keeps what was inserted, whatever the caller changes afterwards', async () => {
    const forms = new MemoryFormRepository();
    const form = formRecord('acme', 'contact', { title: { en: 'Before' } });
    await forms.insert(form);
    form.title.en = 'After';
    form.createdAt.setTime(0);
    const stored = await forms.findById('acme', form.id);
    expect(stored?.title.en).to.equal('Before');
    expect(stored?.createdAt.toISOString()).to.equal('2026-01-02T03:04:05.678Z');
  });

  it('reads a form back from its text once other reads have pushed it out, equal but new', async () => {
    const forms = new MemoryFormRepository(2);
    const [a, b, c] = [formRecord('acme', 'a'), formRecord('acme', 'b'), formRecord('acme', 'c')];
    for (const form of [a, b, c]) await forms.insert(form);
    const firstA = await forms.findById('acme', a.id);
    await forms.findById('acme', b.id);
    expect(await forms.findById('acme', a.id)).to.equal(firstA); // still among the two recent
    await forms.findById('acme', c.id); // a, read first, goes
    const againA = await forms.findById('acme', a.id);
    expect(againA).to.deep.equal(a);
    expect(againA).to.not.equal(firstA);
    expect(isDeeplyFrozen(againA)).to.equal(true);
  });

  it('hands the text it wrote to the answer of the very form an update stored, and keeps the creation stamp', async () => {
    const forms = new MemoryFormRepository();
    const form = formRecord('acme', 'contact');
    await forms.insert(form);
    const current = (await forms.findById('acme', form.id))!;
    const next = { ...current, title: { en: 'Renamed' }, updatedAt: new Date(current.updatedAt.getTime() + 1) };
    expect(await forms.update(next, current.updatedAt)).to.equal('updated');
    expect(takeWrittenText(next)).to.equal(JSON.stringify(next));

    const restamped = { ...next, createdBy: 'someone-else', createdAt: new Date(0), updatedAt: new Date(next.updatedAt.getTime() + 1) };
    expect(await forms.update(restamped, next.updatedAt)).to.equal('updated');
    expect(takeWrittenText(restamped), 'another stamp: the stored record is not the one given').to.equal(undefined);
    const stored = await forms.findById('acme', form.id);
    expect(stored?.createdBy).to.equal(form.createdBy);
    expect(stored?.createdAt.getTime()).to.equal(form.createdAt.getTime());
  });
});

describe('MemorySubmissionRepository’s holders of related ids (decision 0838)', () => {
  const NOW = new Date('2026-02-01T00:00:00.000Z');

  // The contract suite shows that every holder is found; this shows that none is kept after it
  // stops holding the id, which no port call can see (a stale entry is skipped) but memory would.
  it('files each (holder, id) pair once, and unfiles it when the last field holding it lets go', async () => {
    const submissions = new MemorySubmissionRepository();
    const [a, b, c, formId] = ['a'.repeat(24), 'b'.repeat(24), 'c'.repeat(24), 'f'.repeat(24)];
    const holder = submissionRecord('acme', formId, { relations: { links: [a, b], pick: a } });
    await submissions.insert(holder);
    expect(submissions.holdingCount(), 'a in two fields counts once').to.equal(2);
    const connect = (fieldName: string, relatedId: string, multiple: boolean) =>
      submissions.connectRelation({ tenantId: 'acme', submissionId: holder.id, fieldName, relatedId, multiple, cap: 10, now: NOW });
    await connect('pick', c, false); // replaces a, still in links
    expect(submissions.holdingCount()).to.equal(3);
    await connect('pick', b, false); // replaces c, held nowhere else
    expect(submissions.holdingCount()).to.equal(2);
    await submissions.disconnectRelation({ tenantId: 'acme', submissionId: holder.id, fieldName: 'links', relatedId: b, now: NOW });
    expect(submissions.holdingCount(), 'b still in pick').to.equal(2);
    await submissions.disconnectRelation({ tenantId: 'acme', submissionId: holder.id, fieldName: 'links', relatedId: a, now: NOW });
    expect(submissions.holdingCount()).to.equal(1);
    await connect('links', c, true);
    await submissions.withdrawRelation({ tenantId: 'acme', submissionId: holder.id, fieldName: 'links', relatedId: c, restore: null });
    expect(submissions.holdingCount()).to.equal(1);
    await connect('links', c, true);
    expect(await submissions.removeRelationsTo('acme', { formId, fieldName: 'links' }, [c])).to.equal(1);
    expect(submissions.holdingCount()).to.equal(1);
    await submissions.delete('acme', holder.id);
    expect(submissions.holdingCount()).to.equal(0);
    for (let i = 0; i < 3; i += 1) await submissions.insert(submissionRecord('acme', formId, { relations: { links: [a, c] } }));
    expect(submissions.holdingCount()).to.equal(6);
    await submissions.deleteByForm('acme', formId);
    expect(submissions.holdingCount()).to.equal(0);
  });
});
