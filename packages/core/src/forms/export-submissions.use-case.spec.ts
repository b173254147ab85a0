import { expect } from 'chai';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { randomText, seededRandom } from '../testing/seeded-random.js';
import { ExportSubmissions } from './export-submissions.use-case.js';
import { csvRow } from './submission-export-text.js';

const caller = userCaller('acme', 'u1');

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
}

describe('csvRow', () => {
  it('quotes commas, quotes and line breaks, and escapes formula-leading cells', () => {
    expect(csvRow(['a', 'b,c', 'say "hi"', 'two\nlines'])).to.equal('a,"b,c","say ""hi""","two\nlines"\r\n');
    expect(csvRow(['=SUM(A1)', '+1', '-2', '@cmd', '\tx', '\rx', 'ok=1'])).to.equal(`'=SUM(A1),'+1,'-2,'@cmd,'\tx,"'\rx",ok=1\r\n`);
    expect(csvRow(['=1,2', '=say "x"', '"', ''])).to.equal(`"'=1,2","'=say ""x""","""",\r\n`);
  });

  it('writes every cell as the plain rule says (2,000 random cells)', () => {
    // The rule in plain steps: a formula start goes behind a quote mark, then RFC 4180 quoting.
    const byTheRule = (cell: string) => {
      const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
      return /[",\r\n]/.test(text) ? `"${text.split('"').join('""')}"` : text;
    };
    const random = seededRandom(11);
    for (let i = 0; i < 2000; i += 1) {
      const cell = randomText(random, 'a=,+"\r\n-@\t x\'', 8);
      expect(csvRow([cell]), JSON.stringify(cell)).to.equal(`${byTheRule(cell)}\r\n`);
    }
  });
});

describe('ExportSubmissions', () => {
  const setup = async (count: number) => {
    const forms = new MemoryFormRepository();
    const submissions = new MemorySubmissionRepository();
    const form = formRecord('acme', 'survey', {
      sections: [
        {
          title: {},
          description: {},
          fields: [
            { name: 'name', type: 'text', label: { en: 'N' }, required: false, placeholder: {} },
            { name: 'ok', type: 'checkbox', label: { en: 'OK' }, required: false, placeholder: {} },
            { name: 'links', type: 'relation', label: { en: 'L' }, required: false, placeholder: {}, relation: { formId: 'f'.repeat(24), multiple: true } },
          ],
        },
      ],
    });
    await forms.insert(form);
    const stored = [];
    for (let i = 0; i < count; i += 1) {
      const submission = submissionRecord('acme', form.id, {
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)),
        values: i === 0 ? { name: '=1+1', ok: true } : { name: `n${i}` },
        relations: i === 0 ? { links: ['a'.repeat(24), 'b'.repeat(24)] } : {},
        submittedBy: i === 0 ? 'u1' : null,
      });
      await submissions.insert(submission);
      stored.push(submission);
    }
    return { exporter: new ExportSubmissions(forms, submissions), form, stored };
  };

  it('writes each row as csvRow would write its cells, whatever the texts hold (200 random rows)', async () => {
    const { form, stored } = await setup(0);
    const alphabet = ['a', 'Z', '1', ',', '"', '\r', '\n', '\t', '=', '+', '-', '@', ';', ' ', 'é', "'"];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const randomText = () => Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const submissions = new MemorySubmissionRepository();
    const forms = new MemoryFormRepository();
    await forms.insert(form);
    for (let i = 0; i < 200; i += 1) {
      const submission = submissionRecord('acme', form.id, {
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)),
        values: { name: randomText(), ...(random() < 0.5 ? { ok: random() < 0.5 } : {}) },
        relations: random() < 0.5 ? { links: [randomText(), randomText()] } : {},
        submittedBy: random() < 0.5 ? randomText() : null,
      });
      await submissions.insert(submission);
      stored.push(submission);
    }
    const csv = await text((await new ExportSubmissions(forms, submissions).execute(caller, { formId: form.id })).chunks);
    const expected = stored.map((submission) =>
      csvRow([
        submission.id,
        submission.createdAt.toISOString(),
        submission.submittedBy ?? '',
        String(submission.values.name),
        submission.values.ok === undefined ? '' : String(submission.values.ok),
        ((submission.relations.links as string[] | undefined) ?? []).join(';'),
      ]),
    );
    expect(csv).to.equal(csvRow(['id', 'createdAt', 'submittedBy', 'name', 'ok', 'links']) + expected.join(''));
  });

  it('writes CSV oldest first: header, checkbox as true/false, relations joined with ;, missing values empty', async () => {
    const { exporter, form, stored } = await setup(2);
    const csv = await text((await exporter.execute(caller, { formId: form.id })).chunks);
    expect(csv.split('\r\n')).to.deep.equal([
      'id,createdAt,submittedBy,name,ok,links',
      `${stored[0]!.id},2026-01-01T00:00:00.000Z,u1,'=1+1,true,${'a'.repeat(24)};${'b'.repeat(24)}`,
      `${stored[1]!.id},2026-01-01T00:00:00.001Z,,n1,,`,
      '',
    ]);
  });

  it('writes NDJSON lines as the single read answers, across several batches, each submission once', async () => {
    const { exporter, form, stored } = await setup(1203);
    const lines = (await text((await exporter.execute(caller, { formId: form.id, format: 'ndjson' })).chunks)).trimEnd().split('\n');
    expect(lines).to.have.length(1203);
    expect(lines.map((line) => JSON.parse(line).id)).to.deep.equal(stored.map((submission) => submission.id));
    expect(JSON.parse(lines[0]!)).to.have.all.keys('id', 'formId', 'values', 'relations', 'submittedBy', 'createdAt', 'updatedAt');
  });

  it('hands large submissions on in chunks of about 64 KiB, in both formats, so the answer paces the export', async () => {
    const { form } = await setup(0);
    const forms = new MemoryFormRepository();
    const submissions = new MemorySubmissionRepository();
    await forms.insert(form);
    for (let i = 0; i < 40; i += 1) {
      await submissions.insert(submissionRecord('acme', form.id, { createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)), values: { name: `${i}`.padEnd(20_000, 'x') } }));
    }
    const exporter = new ExportSubmissions(forms, submissions);
    for (const [format, separator] of [['csv', '\r\n'], ['ndjson', '\n']] as const) {
      const chunks: string[] = [];
      for await (const chunk of (await exporter.execute(caller, { formId: form.id, format })).chunks) chunks.push(chunk);
      expect(chunks.length, format).to.be.at.least(8); // 800 KB in all
      expect(Math.max(...chunks.map((chunk) => chunk.length)), format).to.be.below(64 * 1024 + 20_200);
      expect(chunks.join('').split(separator).filter((record) => record.includes('x'.repeat(19_000))), `${format}: every record once`).to.have.length(40);
    }
  });

  it('writes a record it remembered anew once the record or its form changed', async () => {
    const { exporter, form, stored } = await setup(2);
    const forms = new MemoryFormRepository();
    const submissions = new MemorySubmissionRepository();
    await forms.insert(form);
    for (const submission of stored) await submissions.insert(submission);
    const exporterOf = new ExportSubmissions(forms, submissions);
    const csv = async () => text((await exporterOf.execute(caller, { formId: form.id })).chunks);
    const first = await csv();
    expect(await csv()).to.equal(first); // written twice: remembered from here on
    expect(await csv()).to.equal(await text((await exporter.execute(caller, { formId: form.id })).chunks));

    // The second submission gains a relation: a new snapshot, so a new record.
    const relatedId = 'c'.repeat(24);
    await submissions.connectRelation({ tenantId: 'acme', submissionId: stored[1]!.id, fieldName: 'links', relatedId, multiple: true, cap: 10, now: new Date() });
    expect((await csv()).split('\r\n')[2]).to.equal(`${stored[1]!.id},2026-01-01T00:00:00.001Z,,n1,,${relatedId}`);

    // The form gains a field: every record gets its column, remembered ones included.
    const [section] = form.sections;
    const note = { name: 'note', type: 'text' as const, label: { en: 'Note' }, required: false, placeholder: {} };
    const changed = { ...form, sections: [{ ...section!, fields: [...section!.fields, note] }], updatedAt: new Date(form.updatedAt.getTime() + 1) };
    expect(await forms.update(changed, form.updatedAt)).to.equal('updated');
    expect((await csv()).split('\r\n')).to.deep.equal([
      'id,createdAt,submittedBy,name,ok,links,note',
      `${stored[0]!.id},2026-01-01T00:00:00.000Z,u1,'=1+1,true,${'a'.repeat(24)};${'b'.repeat(24)},`,
      `${stored[1]!.id},2026-01-01T00:00:00.001Z,,n1,,${relatedId},`,
      '',
    ]);
  });

  it('writes records a store hands out unfrozen as they are at each export', async () => {
    const { form, stored } = await setup(0);
    const forms = new MemoryFormRepository();
    await forms.insert(form);
    const changeable = { ...submissionRecord('acme', form.id, { createdAt: new Date(Date.UTC(2026, 0, 1)), values: { name: 'first' }, submittedBy: null }), values: { name: 'first' } as Record<string, unknown> };
    stored.push(changeable);
    const submissions = new MemorySubmissionRepository();
    // A store like MongoDB's: the same changeable objects on every read (a fresh object per read is the easy case).
    submissions.listByForm = async () => [changeable];
    const exporter = new ExportSubmissions(forms, submissions);
    const nameCell = async () => (await text((await exporter.execute(caller, { formId: form.id })).chunks)).split('\r\n')[1]!.split(',')[3];
    expect(await nameCell()).to.equal('first');
    expect(await nameCell()).to.equal('first');
    changeable.values.name = 'second';
    expect(await nameCell()).to.equal('second');
  });

  it('checks the form and the format before producing anything', async () => {
    const { exporter, form } = await setup(0);
    expect((await domainErrorOf(exporter.execute(caller, { formId: 'nope' }))).code).to.equal('INVALID_FORM_ID');
    expect((await domainErrorOf(exporter.execute(caller, { formId: 'f'.repeat(24) }))).code).to.equal('FORM_NOT_FOUND');
    expect((await domainErrorOf(exporter.execute(caller, { formId: form.id, format: 'xlsx' }))).code).to.equal('VALIDATION_FAILED');
    expect((await domainErrorOf(exporter.execute(userCaller('other', 'u'), { formId: form.id }))).code).to.equal('FORM_NOT_FOUND');
  });
});
