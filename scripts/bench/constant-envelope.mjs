// The references' answer: an envelope with the same status and the same byte size as the
// service's answer to the operation, so both sides write the same amount per response.
export function constantEnvelope(status, bytes) {
  const shell = (pad) => JSON.stringify({ success: status < 400, statusCode: status, message: 'OK', data: { pad } });
  const missing = Math.max(0, bytes - shell('').length);
  return shell('x'.repeat(missing));
}

/** The route table both references serve, read from the file the harness wrote. */
export async function readRouteTable(file) {
  const { readFile } = await import('node:fs/promises');
  return JSON.parse(await readFile(file, 'utf8'));
}

/**
 * The route-table row the references serve for a request, from the service's sampled answer: the
 * path with its templates filled with the request's fallbacks (a reference answers nothing to
 * capture), or a path parameter where the request's `cycle` fills them (one route for all its
 * turns, as the service has), and the answer's status and size.
 */
export function referenceRoute(request, sample) {
  const cycled = new Set(Object.keys(request.cycle?.[0] ?? {}));
  const path = request.path.split('?')[0].replace(/\{\{(\w+)\}\}/g, (_, name) => (cycled.has(name) ? `:${name}` : request.fallback?.[name] ?? ''));
  return { method: request.method, path, status: sample.status, bytes: sample.bytes };
}
