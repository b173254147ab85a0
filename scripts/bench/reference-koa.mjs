// Reference 2, the framework: the Koa app of reference-apps.mjs as a server. Prints `listening <port>`.
import { readRouteTable } from './constant-envelope.mjs';
import { referenceKoaApp } from './reference-apps.mjs';

const server = referenceKoaApp(await readRouteTable(process.argv[2])).listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => process.exit(0));
