import { expect } from 'chai';
import { formRecord } from '../testing/index.js';
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
