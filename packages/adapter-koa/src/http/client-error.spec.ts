import { expect } from 'chai';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientError, clientErrorAnswerer } from './client-error.js';
import { DEFAULT_EARLY_ANSWERS } from './early-answers.js';
import { ServiceMetrics } from './service-metrics.js';

/** Sends `head` and then nothing more; what came back once the server closed the connection. */
function sendAndWait(port: number, head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
  });
}

describe('answerClientError', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((_req, res) => res.end('{}'));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  describe('when the request head is larger than Node accepts', () => {
    /** The answer to a request for `path` with the headers given. */
    const answerTo = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, headers }, (r) => {
          let body = '';
          r.on('data', (chunk) => (body += chunk));
          r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });

    it('answers 431 in the envelope with a request id', async () => {
      const res = await answerTo('/cms/forms/list', { 'x-big': 'a'.repeat(20_000) });
      expect(res.status).to.equal(431);
      expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(res.body)).to.deep.equal({ success: false, statusCode: 431, message: 'Request header fields too large', data: null });
    });

    it('answers 414 URI too long, as the edge does, when the request line holds a target over 8,192 characters', async () => {
      for (const [path, headers] of [
        [`/cms/${'a'.repeat(20_000)}`, {}],
        // The line fits Node's limit and the headers fill it: the target is what the edge refuses.
        [`/cms/forms/list?q=${'a'.repeat(8192 - '/cms/forms/list?q='.length + 1)}`, { 'x-big': 'a'.repeat(9_000) }],
      ] as const) {
        const res = await answerTo(path, headers);
        expect(res.status, path.slice(0, 30)).to.equal(414);
        expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
        expect(JSON.parse(res.body)).to.deep.equal({ success: false, statusCode: 414, message: 'URI too long', data: null });
      }
    });

    it('answers 431 when the target has 8,192 characters and the headers fill the head', async () => {
      const res = await answerTo(`/cms/forms/list?q=${'a'.repeat(8192 - '/cms/forms/list?q='.length)}`, { 'x-big': 'a'.repeat(9_000) });
      expect(res.status).to.equal(431);
    });

    it('answers 414 to a request line that fills the head and never ends', async () => {
      const raw = await sendAndWait(port, `GET /cms/${'a'.repeat(20_000)}`);
      expect(raw).to.match(/^HTTP\/1\.1 414 URI Too Long\r\n/);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).to.include({ statusCode: 414, message: 'URI too long' });
    });
  });

  describe('when the request line is not HTTP', () => {
    it('answers 400 Bad request in the envelope', async () => {
      const raw = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('NOT A REQUEST\r\n\r\n'));
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => resolve(text));
      });
      expect(raw).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).to.deep.equal({ success: false, statusCode: 400, message: 'Bad request', data: null });
    });
  });
});

describe('answerClientError on a request being served', () => {
  let server: Server;
  let port: number;
  let serve: (req: IncomingMessage, res: ServerResponse) => void;
  before(async () => {
    server = createServer({ headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 }, (req, res) => serve(req, res));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  describe('when the request timeout expires before its answer has started', () => {
    it('answers 408 through its response, with the headers its layers set, and aborts it once the connection closes', async () => {
      let aborted!: () => void;
      const pipelineEnded = new Promise<void>((resolve) => (aborted = resolve));
      serve = (req, res) => {
        res.setHeader('x-request-id', 'served-1');
        res.setHeader('access-control-allow-origin', 'https://app.example.com');
        req.on('data', () => {});
        req.on('aborted', aborted);
      };
      const raw = await sendAndWait(port, 'PUT /cms/x HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":');
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).to.match(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(head).to.match(/^x-request-id: served-1$/im);
      expect(head).to.match(/^access-control-allow-origin: https:\/\/app\.example\.com$/im);
      expect(head).to.match(/^connection: close$/im);
      expect(JSON.parse(body!)).to.deep.equal({ success: false, statusCode: 408, message: 'Request timeout', data: null });
      await pipelineEnded;
    });
  });

  describe('when its body is malformed (not a timeout)', () => {
    it('answers 400 Bad request through its response too', async () => {
      serve = (req, res) => {
        res.setHeader('x-request-id', 'served-2');
        req.on('data', () => {});
      };
      const raw = await sendAndWait(port, 'PUT /cms/x HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n');
      expect(raw).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(raw).to.match(/^x-request-id: served-2$/im);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).to.deep.equal({ success: false, statusCode: 400, message: 'Bad request', data: null });
    });
  });

  describe('when the request timeout expires after part of its answer is out', () => {
    it('closes the connection without a second answer', async () => {
      serve = (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 10 });
        res.write('01234');
        req.on('data', () => {});
      };
      const raw = await sendAndWait(port, 'PUT /cms/x HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":');
      expect(raw).to.match(/^HTTP\/1\.1 200 OK\r\n/);
      expect(raw).not.to.contain('408');
      expect(raw.endsWith('\r\n\r\n01234')).to.equal(true);
    });
  });
});

describe('clientErrorAnswerer with a request logger', () => {
  let server: Server;
  let port: number;
  const lines: Array<Record<string, unknown>> = [];
  const requestLogger = { info: (message: string, fields?: Record<string, unknown>) => void lines.push({ message, ...fields }), warn() {}, error() {} };
  before(async () => {
    server = createServer({ headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 }, (req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    server.on('clientError', clientErrorAnswerer(DEFAULT_EARLY_ANSWERS, requestLogger));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (lines.length = 0));

  /** The request id of the last answer in `raw` (the socket-level one). */
  const answeredId = (raw: string) => [...raw.matchAll(/^x-request-id: (\S+)$/gim)].at(-1)?.[1];

  describe('when it answers on the socket', () => {
    it('writes one request line: method and path without the query, status, the answer\'s request id, no tenant and no header value', async () => {
      const raw = await sendAndWait(port, 'GET /cms/forms/list?captchaToken=secret-token HTTP/1.1\r\nhost: x\r\nx-api-key: secret-key-value\r\nnot a header line\r\n\r\n');
      expect(raw).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(lines).to.deep.equal([
        { message: 'request', method: 'GET', route: null, path: '/cms/forms/list', status: 400, durationMs: null, requestId: answeredId(raw), traceId: null, tenant: null },
      ]);
      expect(JSON.stringify(lines)).not.to.match(/secret-token|secret-key-value|127\.0\.0\.1/);
    });

    it('logs a 431 without any of its headers', async () => {
      const raw = await sendAndWait(port, `GET /cms/forms/list HTTP/1.1\r\nhost: x\r\nx-api-key: secret-key-value\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(raw).to.match(/^HTTP\/1\.1 431 /);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({ message: 'request', route: null, status: 431, requestId: answeredId(raw), tenant: null });
      // The header's name or a run of its value; `aaaa` alone can occur in a random request id.
      expect(JSON.stringify(lines)).not.to.match(/secret-key-value|x-big|a{16}/);
    });

    it('cuts a long path to 256 characters', async () => {
      await sendAndWait(port, `GET /cms/${'p'.repeat(300)} HTTP/1.1\r\nhost: x\r\nnot a header line\r\n\r\n`);
      expect(lines.map(({ method, path }) => ({ method, path }))).to.deep.equal([{ method: 'GET', path: `/cms/${'p'.repeat(251)}…` }]);
    });

    it('logs the method and the cut path of a request line that fills the head, ended or not, without its query', async () => {
      const ended = await sendAndWait(port, `GET /cms/${'p'.repeat(20_000)}?captchaToken=secret HTTP/1.1\r\nhost: x\r\n\r\n`);
      const unended = await sendAndWait(port, `PUT /cms/${'q'.repeat(10_000)}?captchaToken=secret${'s'.repeat(10_000)} HTT`);
      expect(lines.map(({ method, path, status, requestId }) => ({ method, path, status, requestId }))).to.deep.equal([
        { method: 'GET', path: `/cms/${'p'.repeat(251)}…`, status: 414, requestId: answeredId(ended) },
        { method: 'PUT', path: `/cms/${'q'.repeat(251)}…`, status: 414, requestId: answeredId(unended) },
      ]);
      expect(JSON.stringify(lines)).not.to.match(/secret/);
    });

    it('logs no method or path for bytes that are not HTTP, or a head slower than the headers timeout', async () => {
      const garbage = await sendAndWait(port, 'GARBAGE\r\n\r\n');
      const slow = await sendAndWait(port, 'GET /cms/slow HTTP/1.1\r\nhost: x\r\n');
      expect(slow).to.match(/^HTTP\/1\.1 408 /);
      expect(lines.map(({ method, path, status, requestId }) => ({ method, path, status, requestId }))).to.deep.equal([
        { method: null, path: null, status: 400, requestId: answeredId(garbage) },
        { method: null, path: null, status: 408, requestId: answeredId(slow) },
      ]);
    });

    it('logs a refusal pipelined behind a served request once, without the served request\'s method or path', async () => {
      const raw = await sendAndWait(port, 'PUT /cms/served HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}GARBAGE\r\n\r\n');
      expect(raw).to.match(/^HTTP\/1\.1 200 OK\r\n[\s\S]*HTTP\/1\.1 400 Bad Request\r\n/);
      expect(lines).to.deep.equal([
        { message: 'request', method: null, route: null, path: null, status: 400, durationMs: null, requestId: answeredId(raw), traceId: null, tenant: null },
      ]);
    });
  });
});

describe('clientErrorAnswerer with metrics', () => {
  let server: Server;
  let port: number;
  const metrics = new ServiceMetrics();
  before(async () => {
    server = createServer({ headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 }, (req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    server.on('clientError', clientErrorAnswerer(DEFAULT_EARLY_ANSWERS, undefined, metrics));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts each answer written on the socket under the route unmatched, by a method Node knows or unknown, and times none', async () => {
    await sendAndWait(port, 'GET /cms/forms/list?captchaToken=secret-token HTTP/1.1\r\nhost: x\r\nnot a header line\r\n\r\n');
    await sendAndWait(port, 'FOO /cms/forms/list HTTP/1.1\r\nhost: x\r\n\r\n'); // a method Node does not know: no label of its own
    await sendAndWait(port, 'GARBAGE\r\n\r\n');
    await sendAndWait(port, 'PUT /cms/served HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}GARBAGE\r\n\r\n'); // served 200, then the refusal
    await sendAndWait(port, 'GET /cms/slow HTTP/1.1\r\nhost: x\r\n');
    const series = (await metrics.text()).split('\n').filter((line) => line.startsWith('http_request'));
    expect(series).to.deep.equal([
      'http_requests_total{method="GET",route="unmatched",status="400"} 1',
      'http_requests_total{method="unknown",route="unmatched",status="400"} 3',
      'http_requests_total{method="unknown",route="unmatched",status="408"} 1',
    ]);
  });
});
