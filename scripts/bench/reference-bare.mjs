// Reference 1, the floor: a bare node:http server (see reference-apps.mjs). Prints `listening <port>`.
import { createServer } from 'node:http';
import { readRouteTable } from './constant-envelope.mjs';
import { bareHandler } from './reference-apps.mjs';

const server = createServer(bareHandler(await readRouteTable(process.argv[2])));
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
