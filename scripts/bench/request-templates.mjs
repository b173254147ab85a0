// The templates of a load request, filled the same way by the load generator, the in-process A/B
// and the bench client (load-generator.mjs describes them): `{{seq}}` a value unique to this
// send, `{{round}}` one per round of a connection's list, any other `{{name}}` from the request's
// `cycle` entry for this send, else what an earlier request of the round captured, else the
// request's `fallback`.
const TEMPLATE = /\{\{(\w+)\}\}/g;

/** `text` with its templates filled; `context` is the round's (captures, and `round` once drawn). */
export function fillTemplates(text, { unique, context, turn, fallback }) {
  return text.replace(TEMPLATE, (_, name) =>
    name === 'seq' ? unique : name === 'round' ? (context.round ??= unique) : String(turn?.[name] ?? context[name] ?? fallback?.[name] ?? ''),
  );
}
