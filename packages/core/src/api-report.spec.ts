/**
 * The public API report (issue 22 item 3): the names and declarations `@cms/core`, `/testing`,
 * `/testing/contracts` and `/snapshots` export, read from the compiled .d.ts, equal the committed
 * packages/core/etc/core.api.md. A change of the public surface fails here until the report is
 * regenerated (`npm run api:report`) and committed, so it shows in review. And no public
 * declaration uses a name the entries leave out (the script says which, on stderr).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'api-report.mjs');

function check(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [SCRIPT, '--check'], { cwd: ROOT, timeout: 30_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe('@cms/core public API report', function () {
  this.timeout(30_000);

  it('matches packages/core/etc/core.api.md (if the change is intended: npm run api:report, then commit the report)', async () => {
    const { code, stdout, stderr } = await check();
    expect(stderr, 'the public API changed: run `npm run api:report` and commit packages/core/etc/core.api.md').to.equal('');
    expect(code).to.equal(0);
    expect(stdout).to.match(/^API report up to date \(\. \d+, \.\/testing \d+, \.\/testing\/contracts \d+, \.\/snapshots \d+\)/);
  });

  it('leaves out the internals that moved to @cms/core/internal', async () => {
    const core: Record<string, unknown> = await import('./index.js');
    const internal: Record<string, unknown> = await import('./internal.js');
    for (const name of ['DIGEST_MEMO_SIZE', 'normalizeFormInput', 'validationError', 'hashApiKey', 'readPage']) {
      expect(core, name).not.to.have.property(name);
      expect(internal, name).to.have.property(name);
    }
    for (const name of ['createCore', 'CreateForm', 'DomainError', 'MemoryFormRepository', 'FormRepositoryToken', 'DispatchLoop']) expect(core, name).to.have.property(name);
  });
});
