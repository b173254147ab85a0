/**
 * The API reference page at `GET {basePath}/docs` (no key): Swagger UI rendering the service's
 * own `openapi.json`, served from the `swagger-ui-dist` package's files, so the page works with
 * no network beyond the service itself (decision 0742): the online validator badge is off too. Files are read on first use and kept.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;

export type ApiReferenceAsset = keyof typeof ASSETS;

export interface ApiReferenceFile {
  readonly type: string;
  readonly body: string | Buffer;
}

export class ApiReference {
  readonly #files = new Map<string, ApiReferenceFile>();
  readonly #directory = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

  constructor(
    private readonly docsPath: string,
    private readonly documentPath: string,
    private readonly title: string,
  ) {}

  /** Whether `path` is the page or one of its assets (what `file` answers), without reading anything. */
  serves(path: string): boolean {
    return path === this.docsPath || (path.startsWith(`${this.docsPath}/`) && Object.hasOwn(ASSETS, path.slice(this.docsPath.length + 1)));
  }

  /** The page itself, or one of its assets (`docs/swagger-ui.css`); undefined for any other path. */
  file(path: string): ApiReferenceFile | undefined {
    if (path === this.docsPath) return { type: 'text/html; charset=utf-8', body: this.#page() };
    const name = path.startsWith(`${this.docsPath}/`) ? path.slice(this.docsPath.length + 1) : undefined;
    if (name === undefined || !Object.hasOwn(ASSETS, name)) return undefined;
    let file = this.#files.get(name);
    if (!file) {
      file = { type: ASSETS[name as ApiReferenceAsset], body: readFileSync(join(this.#directory, name)) };
      this.#files.set(name, file);
    }
    return file;
  }

  #page(): string {
    const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escape(this.title)} — API reference</title>
<link rel="stylesheet" href="${escape(this.docsPath)}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${escape(this.docsPath)}/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: ${JSON.stringify(this.documentPath)}, dom_id: '#reference', deepLinking: true, docExpansion: 'list', validatorUrl: null });
</script>
</body>
</html>
`;
  }
}
