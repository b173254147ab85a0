/**
 * Compares the headers of an answer with the headers its documented response declares: a header
 * the service sends must be declared (a generated client can read only those), and a declared
 * `required` header must be sent, in the form its schema gives.
 */
type Json = Record<string, any>;

/**
 * Headers no response declares: the framing and encoding of every HTTP answer, and the two
 * policy headers §8 puts on every answer (`Cache-Control`, `X-Content-Type-Options`).
 */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'vary',
  'date',
  'connection',
  'keep-alive',
  'cache-control',
  'x-content-type-options',
]);

/** What is wrong with the headers of an answer given the response the document declares for its status. */
export function headerProblems(document: Json, response: Json, headers: Headers): string[] {
  const declared = new Map<string, Json>();
  for (const [name, header] of Object.entries<Json>(response.headers ?? {})) declared.set(name.toLowerCase(), resolved(document, header));
  const problems: string[] = [];
  for (const [name] of headers) {
    if (!TRANSPORT_HEADERS.has(name) && !declared.has(name)) problems.push(`header ${name} is sent but not declared`);
  }
  for (const [name, header] of declared) {
    const value = headers.get(name);
    if (value === null) {
      if (header.required === true) problems.push(`header ${name} is declared required but not sent`);
    } else if (header.schema?.type === 'integer' && !/^\d+$/.test(value)) {
      problems.push(`header ${name} is not an integer: ${value}`);
    }
  }
  return problems;
}

/** A header object, or the `components.headers` entry its `$ref` names. */
function resolved(document: Json, header: Json): Json {
  const ref: unknown = header.$ref;
  if (typeof ref !== 'string') return header;
  const name = ref.replace('#/components/headers/', '');
  const target = document.components?.headers?.[name];
  if (!target) throw new Error(`unresolvable header reference ${ref}`);
  return target as Json;
}
