/**
 * The shell helper the README's examples lean on, `id()`, taken from README.md as it is written
 * and run in bash on the answers it meets: a created record, an error envelope, no answer (the
 * service not running, or `$CMS` on another port) and a page that is not JSON. A reader who
 * copies it gets an id or the answer itself, never a stack trace.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = readFileSync(fileURLToPath(new URL('../../../../README.md', import.meta.url)), 'utf8');

/** The README's `id() { … }` definition, from its first line to the `; }` that closes it. */
function helperDefinition(): string {
  const match = /^id\(\) \{[\s\S]*?'; \}$/m.exec(README);
  if (match === null) throw new Error('README.md defines no id() helper');
  return match[0];
}

/** Pipes `answer` into the helper; its exit code and what it printed where. */
function runHelper(answer: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('bash', ['-c', `${helperDefinition()}\nid`], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin!.end(answer);
  });
}

describe("README's id() helper", () => {
  it('prints the id of the record in a success answer, whichever kind it is', async () => {
    for (const kind of ['form', 'submission', 'article', 'comment', 'author', 'category', 'webhook']) {
      const answer = JSON.stringify({ success: true, statusCode: 201, message: 'Created', data: { [kind]: { id: `id-of-${kind}` } } });
      expect(await runHelper(answer), kind).to.deep.equal({ code: 0, stdout: `id-of-${kind}\n`, stderr: '' });
    }
  });

  it('prints an error answer whole on stderr and fails', async () => {
    const answer = JSON.stringify({ success: false, statusCode: 409, message: 'Form slug already exists', data: null });
    expect(await runHelper(answer)).to.deep.equal({ code: 1, stdout: '', stderr: `${answer}\n` });
  });

  it('says there was no answer when nothing came, and prints what came when it is not JSON', async () => {
    expect(await runHelper('')).to.deep.equal({ code: 1, stdout: '', stderr: 'no answer: is the service running at that address?\n' });
    expect(await runHelper('<html>Bad gateway</html>\n')).to.deep.equal({ code: 1, stdout: '', stderr: '<html>Bad gateway</html>\n' });
    expect(await runHelper('null')).to.deep.equal({ code: 1, stdout: '', stderr: 'null\n' });
  });
});
