/**
 * The API reference page at /cms/docs (issue 16 item 3): served without a key from the
 * swagger-ui-dist package's own files, and rendered by a real headless Chromium (Debian's
 * `chromium`), which is skipped with a message where it is not installed.
 */
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestService, type TestService } from '../testing/test-service.js';

const run = promisify(execFile);

function chromiumPath(): string | undefined {
  for (const name of [process.env['CHROMIUM_PATH'], 'chromium', 'chromium-browser', 'google-chrome']) {
    if (!name) continue;
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}

describe('GET /cms/docs (API reference)', () => {
  let api: TestService;
  before(async () => (api = await startTestService()));
  after(() => api.stop());

  it('serves the page and its assets without a key, from files of this service', async () => {
    const page = await api.call('GET', '/docs', { key: null });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.body).to.contain('src="/cms/docs/swagger-ui-bundle.js"').and.contain('"/cms/openapi.json"');
    expect(page.body).not.to.match(/https?:\/\//);
    const script = await fetch(`${api.baseUrl}/docs/swagger-ui-bundle.js`);
    expect(script.status).to.equal(200);
    expect(script.headers.get('content-type')).to.contain('javascript');
    expect((await script.text()).length).to.be.greaterThan(100_000);
    for (const res of [page, script]) expect(res.headers.get('cache-control'), 'a browser may keep it, a shared cache may not (§8)').to.equal('private, max-age=300');
    expect((await api.call('GET', '/docs/../../package.json', { key: null })).status).to.equal(404);
    expect((await api.call('GET', '/docs/index.html', { key: null })).status).to.equal(404);
  });

  it('answers another method than GET or HEAD on the document, the page and its assets 405 with Allow: GET, HEAD', async () => {
    for (const path of ['/openapi.json', '/docs', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js']) {
      expect((await api.call('HEAD', path, { key: null })).status, `HEAD ${path}`).to.equal(200);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        const res = await api.call(method, path, { key: null });
        expect([res.status, res.body.message, res.headers.get('allow')], `${method} ${path}`).to.deep.equal([405, 'Method not allowed', 'GET, HEAD']);
      }
    }
    expect((await api.call('POST', '/docs/index.html', { key: null })).status, 'not a file of the page').to.equal(404);
  });

  it('renders the operation list in a real headless browser', async function () {
    this.timeout(60_000);
    const chromium = chromiumPath();
    if (!chromium) {
      process.stderr.write('      (skipped: chromium is not installed here; `apt-get install chromium` runs the browser check of /cms/docs)\n');
      this.skip();
    }
    const { stdout } = await run(
      chromium!,
      [
        ...['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--virtual-time-budget=15000'],
        // Offline: every host but the service's own loopback address fails to resolve.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        ...['--dump-dom', `${api.baseUrl}/docs`],
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 50_000 },
    );
    expect(stdout).to.contain('opblock-summary-path');
    for (const path of ['/reports/dashboardConfig', '/authors/delete/{id}', '/forms/create', '/ai/translate', '/forms/getNextById/{id}']) {
      expect(stdout, path).to.contain(path);
    }
  });
});
