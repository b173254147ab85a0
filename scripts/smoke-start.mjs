// Proves the README's start command: runs `npm start` on the embedded store, waits for the
// printed key, calls one operation with it, then stops the service with SIGTERM and expects a
// clean exit. Bounded: gives up after 120 s.
import { spawn } from 'node:child_process';

const port = process.env.SMOKE_PORT ?? '38517';
const child = spawn('npm', ['start', '--silent'], {
  env: { ...process.env, PORT: port, HOST: '127.0.0.1', CMS_API_KEYS: '', MONGODB_URI: '' },
  stdio: ['ignore', 'ignore', 'pipe'],
  detached: true,
});
const fail = (message) => {
  process.stderr.write(`smoke-start: ${message}\n`);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
  process.exit(1);
};
const timer = setTimeout(() => fail('no API key printed within 120 s'), 120_000);
let output = '';
child.stderr.on('data', async (chunk) => {
  output += chunk;
  const key = /API key for tenant "default" \(shown once\): (cms_\S+)/.exec(output)?.[1];
  if (!key || timer.hasRef() === false) return;
  clearTimeout(timer);
  timer.unref();
  const res = await fetch(`http://127.0.0.1:${port}/cms/ai/repurpose/template`, { headers: { 'x-api-key': key } });
  const body = await res.json();
  if (res.status !== 200 || body.data?.tenantId !== 'default') fail(`unexpected answer ${res.status} ${JSON.stringify(body)}`);
  process.kill(-child.pid, 'SIGTERM');
});
child.on('exit', (code, signal) => {
  if (timer.hasRef()) fail(`service exited early (${code ?? signal}):\n${output}`);
  if (code !== 0 && signal !== 'SIGTERM') fail(`service did not stop cleanly (${code ?? signal}):\n${output}`);
  process.stdout.write(`smoke-start: npm start served the embedded store and stopped cleanly (${code ?? signal})\n`);
});
