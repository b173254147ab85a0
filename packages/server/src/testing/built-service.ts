/**
 * The built service as its own process (`node dist/main.js`), for tests that need what only a
 * separate process shows: its exit code, its signals, its sockets seen from another process.
 * The environment is the test's own minus every service setting, plus `env`; it listens on a
 * free port of 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
const SERVICE_SETTING = /^(CMS_|CAPTCHA_|MONGODB_|AI_|SMTP_|PUSH_|NOTIFY_|GUEST_|NODE_ENV$|PORT$|HOST$)/;

export interface BuiltService {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>`; undefined when the process stopped before listening. */
  readonly origin: string | undefined;
  /** What the process wrote to standard error so far. */
  stderr(): string;
  /** The exit code once it has exited by itself (null for a signal); undefined while it runs. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the built service (`main`: another copy of it); resolves once it listens or exits, rejects after `timeoutMs`. */
export async function startBuiltService(env: Record<string, string>, timeoutMs = 20_000, main = MAIN): Promise<BuiltService> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVICE_SETTING.test(name)));
  const child = spawn(process.execPath, [main], {
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', CMS_REQUEST_LOG: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const listening = new Promise<string>((resolve) => {
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const origin = /listening on (http:\/\/[^/\s]+)/.exec(stderr)?.[1];
      if (origin) resolve(origin);
    });
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service neither listened nor exited within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
  });
  const origin = await Promise.race([listening, exited.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
  return {
    child,
    origin,
    stderr: () => stderr,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
