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

/** The path a reference server receives: templates filled with the request's fallbacks (it answers nothing to capture). */
export function referencePath(request) {
  return request.path.split('?')[0].replace(/\{\{(\w+)\}\}/g, (_, name) => request.fallback?.[name] ?? '');
}
