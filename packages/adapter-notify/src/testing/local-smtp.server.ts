/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) for tests: it records each
 * message's envelope and decoded text, can require a login, and can refuse recipients (for good,
 * with a given reply code, or for a number of attempts). Plus a
 * TCP listener that accepts and never speaks, to exercise send timeouts.
 */
import { once } from 'node:events';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly mailFrom: string;
  readonly rcptTo: string[];
  readonly user: string | undefined;
  /** Header names lower-cased, folded lines joined. */
  readonly headers: Record<string, string>;
  /** The body, transfer encoding undone. */
  readonly text: string;
}

export interface LocalSmtpOptions {
  /** Require this login (plain text: loopback only). */
  readonly login?: { readonly user: string; readonly pass: string };
  /** Recipients the server refuses with 550. */
  readonly refuse?: readonly string[];
  /** Recipients the server refuses every time with the given reply code (`452`, `500`…). */
  readonly refuseWith?: Readonly<Record<string, number>>;
  /** Recipients the server refuses with 451 (greylisting), each the given number of times, then takes. */
  readonly defer?: Readonly<Record<string, number>>;
}

export class LocalSmtpServer {
  readonly received: ReceivedMail[] = [];
  #server!: SMTPServer;
  #port = 0;

  private constructor(private readonly options: LocalSmtpOptions) {}

  static async start(options: LocalSmtpOptions = {}): Promise<LocalSmtpServer> {
    const local = new LocalSmtpServer(options);
    const deferrals = new Map(Object.entries(options.defer ?? {}));
    const refusals = new Map<string, number>([...(options.refuse ?? []).map((address) => [address, 550] as const), ...Object.entries(options.refuseWith ?? {})]);
    local.#server = new SMTPServer({
      logger: false,
      // Loopback in tests: no STARTTLS with a self-signed certificate to trip the client.
      disabledCommands: options.login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !options.login,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        const ok = auth.username === options.login?.user && auth.password === options.login?.pass;
        callback(ok ? null : Object.assign(new Error('Invalid username or password'), { responseCode: 535 }), ok ? { user: auth.username } : undefined);
      },
      onRcptTo(address, _session, callback) {
        const code = refusals.get(address.address);
        if (code !== undefined) {
          return callback(Object.assign(new Error(`Recipient refused: ${address.address}`), { responseCode: code }));
        }
        if ((deferrals.get(address.address) ?? 0) > 0) {
          deferrals.set(address.address, deferrals.get(address.address)! - 1);
          return callback(Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 }));
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          local.received.push({
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((to) => to.address),
            user: typeof session.user === 'string' ? session.user : undefined,
            ...parseMessage(Buffer.concat(chunks).toString('utf8')),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => local.#server.listen(0, '127.0.0.1', () => resolve()));
    local.#port = (local.#server.server.address() as AddressInfo).port;
    return local;
  }

  get port(): number {
    return this.#port;
  }

  /** An SMTP_URL for this server, with the login when one is required. */
  get url(): string {
    const login = this.options.login ? `${encodeURIComponent(this.options.login.user)}:${encodeURIComponent(this.options.login.pass)}@` : '';
    return `smtp://${login}127.0.0.1:${this.#port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** Accepts TCP connections and never sends a byte (an SMTP server that hangs). */
export class SilentTcpServer {
  readonly #sockets = new Set<Socket>();
  readonly #server: TcpServer;
  connections = 0;

  private constructor() {
    this.#server = createTcpServer((socket) => {
      this.connections += 1;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => {});
    });
  }

  static async start(): Promise<SilentTcpServer> {
    const silent = new SilentTcpServer();
    await new Promise<void>((resolve) => silent.#server.listen(0, '127.0.0.1', resolve));
    return silent;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** Resolves once a client has connected (at once when one has). */
  async connected(): Promise<void> {
    if (this.connections === 0) await once(this.#server, 'connection');
  }

  stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

function parseMessage(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  const encoding = headers['content-transfer-encoding']?.toLowerCase();
  if (encoding === 'quoted-printable') {
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } else if (encoding === 'base64') {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { headers, text: body.replace(/\r\n/g, '\n') };
}
