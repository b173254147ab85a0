// Reference 1, the floor: a bare node:http server that answers each operation's method and
// path with a constant envelope of the service's size. It still reads the whole request body,
// as any server must, but parses nothing. Prints `listening <port>` when ready.
import { createServer } from 'node:http';
import { constantEnvelope, readRouteTable } from './constant-envelope.mjs';

const table = await readRouteTable(process.argv[2]);
const answers = new Map(table.map((route) => [`${route.method} ${route.path}`, { status: route.status, body: constantEnvelope(route.status, route.bytes) }]));
const notFound = constantEnvelope(404, 60);

const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    const answer = answers.get(`${req.method} ${req.url.split('?')[0]}`);
    res.writeHead(answer?.status ?? 404, { 'content-type': 'application/json; charset=utf-8' });
    res.end(answer?.body ?? notFound);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
