/** examples/embed-core runs as docs/embedding.md says: a plain Node program, exit 0. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

describe('examples/embed-core', () => {
  it('builds the use cases with createCore, submits a form, mails its notification, refuses invalid forms, shows the guest rules hold and delivers a signed webhook', async () => {
    const main = fileURLToPath(new URL('../../../../examples/embed-core/main.mjs', import.meta.url));
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [main], { timeout: 20_000 }, (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }));
    });
    expect(stderr).to.equal('');
    expect(code).to.equal(0);
    expect(stdout.trim().split('\n')).to.have.length(7);
    expect(stdout).to.contain('notification mailed').and.contain('invalid forms refused').and.contain('guest rules hold').and.contain('may write again').and.contain('webhook delivered');
  });
});
