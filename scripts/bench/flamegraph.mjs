// A flame graph (SVG, no dependencies) of a V8 .cpuprofile, such as profile.mjs leaves in
// bench-results/profiles/: each box a function on a call path, as wide as the time spent in it
// and below it, colour by where its code lives (ours, Koa and its middleware, Node, the
// collector). Hovering a box shows its time per request when the request count is given.
//   node scripts/bench/flamegraph.mjs <file.cpuprofile> --out docs/x.svg
//        [--requests N] [--window S] [--title "…"]
// --window S keeps the last S seconds of the profile (the load run, without start-up and seeding).
import { readFileSync, writeFileSync } from 'node:fs';

const WIDTH = 1200;
const ROW = 17;
const MIN_WIDTH = 0.3; // px: narrower boxes are left out (their time stays in the parent's width)
const COLOURS = { root: '#ddd', core: '#e8a33d', adapter: '#d9604c', library: '#6c9bd2', node: '#9bbf6a', gc: '#a77fc7', other: '#bbb' };

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const file = args[0];
const out = option('--out');
if (!file || !out) {
  process.stderr.write('usage: flamegraph.mjs <file.cpuprofile> --out <file.svg> [--requests N] [--window seconds] [--title text]\n');
  process.exit(1);
}
const requests = Number(option('--requests') ?? 0);
const windowSeconds = Number(option('--window') ?? 0);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const root = callTree(profile, windowSeconds);
const title = option('--title') ?? `CPU profile ${file.split('/').pop()}`;
writeFileSync(out, render(root, title));
process.stdout.write(`${out}: ${(root.total / 1000).toFixed(0)} ms of samples${requests ? `, ${(root.total / requests).toFixed(1)} µs per request` : ''}\n`);

/** The profile's samples as a tree of call paths, frames of one name under one parent merged. */
function callTree({ nodes, samples, timeDeltas, startTime }, lastSeconds) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const times = [];
  let clock = startTime;
  for (const delta of timeDeltas) times.push((clock += delta));
  const from = lastSeconds > 0 ? times[times.length - 1] - lastSeconds * 1e6 : -Infinity;
  const selfById = new Map();
  samples.forEach((id, i) => {
    if (times[i] >= from) selfById.set(id, (selfById.get(id) ?? 0) + (timeDeltas[i] ?? 0));
  });
  const tree = { name: 'all', kind: 'root', total: 0, children: new Map() };
  for (const [id, self] of selfById) {
    const path = [];
    for (let at = id; at !== undefined; at = parentOf.get(at)) path.push(byId.get(at).callFrame);
    path.pop(); // V8's (root)
    let box = tree;
    box.total += self;
    for (const frame of path.reverse()) {
      const name = labelOf(frame);
      let child = box.children.get(name);
      if (!child) box.children.set(name, (child = { name, kind: kindOf(frame), total: 0, children: new Map() }));
      child.total += self;
      box = child;
    }
  }
  return tree;
}

function labelOf({ functionName, url, lineNumber }) {
  const where = url.replace(/^file:\/\//, '').replace(/.*\/(packages|node_modules)\//, '').replace(/\/dist\//, '/');
  const name = functionName || '(anonymous)';
  return where ? `${name} ${where}:${lineNumber + 1}` : name;
}

function kindOf({ functionName, url }) {
  if (functionName === '(garbage collector)') return 'gc';
  if (/\/packages\/core\/|@cms\/core/.test(url)) return 'core';
  if (/\/packages\/(adapter-|server\/)|@cms\/(adapter-|server)/.test(url)) return 'adapter';
  if (url.includes('node_modules')) return 'library';
  if (url.startsWith('node:') || url === '') return 'node';
  return 'other';
}

function render(tree, heading) {
  const rows = [];
  const scale = WIDTH / tree.total;
  let depth = 0;
  const place = (box, x, level) => {
    const width = box.total * scale;
    if (width < MIN_WIDTH) return;
    depth = Math.max(depth, level);
    rows.push({ box, x, level, width });
    let offset = x;
    for (const child of [...box.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      place(child, offset, level + 1);
      offset += child.total * scale;
    }
  };
  place(tree, 0, 0);
  const top = 44;
  const height = top + (depth + 1) * ROW + 40;
  const boxes = rows.map(({ box, x, level, width }) => {
    const y = height - 40 - (level + 1) * ROW; // flames grow upwards from the bottom
    const share = ((100 * box.total) / tree.total).toFixed(1);
    const perRequest = requests ? `, ${(box.total / requests).toFixed(2)} µs per request` : '';
    const chars = Math.floor((width - 4) / 6.5);
    const text = chars >= 3 ? (box.name.length <= chars ? box.name : `${box.name.slice(0, chars - 1)}…`) : '';
    return (
      `<g><title>${escape(box.name)}: ${share}%${perRequest}</title>` +
      `<rect x="${x.toFixed(2)}" y="${y}" width="${width.toFixed(2)}" height="${ROW - 1}" fill="${COLOURS[box.kind]}" rx="2"/>` +
      (text ? `<text x="${(x + 3).toFixed(2)}" y="${y + 12}">${escape(text)}</text>` : '') +
      '</g>'
    );
  });
  const legend = Object.entries({ core: 'core', adapter: 'adapters and server', library: 'libraries (Koa, AJV, …)', node: 'Node.js', gc: 'garbage collector' })
    .map(([kind, words], i) => `<rect x="${10 + i * 190}" y="${height - 22}" width="12" height="12" fill="${COLOURS[kind]}"/><text x="${26 + i * 190}" y="${height - 12}">${words}</text>`)
    .join('');
  const total = `${(tree.total / 1000).toFixed(0)} ms of samples${requests ? `, ${(tree.total / requests).toFixed(1)} µs per request (${requests} requests)` : ''}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="monospace" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="18" font-size="14">${escape(heading)}</text>`,
    `<text x="10" y="34">${escape(total)}; width = time in the function and below it; hover for figures</text>`,
    ...boxes,
    legend,
    '</svg>',
    '',
  ].join('\n');
}

function escape(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
