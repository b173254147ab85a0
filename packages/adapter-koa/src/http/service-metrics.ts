/**
 * The Prometheus metrics of `GET /metrics` (CONTRACT §8), on prom-client: requests and their
 * durations by method, route template and status; outbox jobs by status, read at scrape time;
 * AI tokens charged; the process metrics. Labels are route templates, never raw paths, so ids
 * never become label values. The per-request cost is one map look-up of the label set's
 * children, then an increment and an observation.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface MetricsSources {
  /** Outbox jobs by status, asked at each scrape. */
  readonly jobsByStatus?: () => Promise<Readonly<Record<string, number>>>;
}

interface RequestChildren {
  readonly count: { inc(): void };
  readonly duration: { observe(seconds: number): void };
}

/** What a request outside every route is labelled with (an unknown path must not add label values). */
export const UNMATCHED_ROUTE = 'unmatched';

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #duration: Histogram<'method' | 'route' | 'status'>;
  readonly #aiTokens: Counter;
  readonly #children = new Map<string, RequestChildren>();

  constructor(sources: MetricsSources = {}) {
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.#duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request reaching the service to its answer being decided, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.#aiTokens = new Counter({
      name: 'ai_tokens_charged_total',
      help: 'AI provider tokens charged to tenants (usage.total_tokens of successful calls)',
      registers: [this.registry],
    });
    const jobsByStatus = sources.jobsByStatus;
    if (jobsByStatus) {
      new Gauge({
        name: 'outbox_jobs',
        help: 'Notification outbox jobs by status',
        labelNames: ['status'],
        registers: [this.registry],
        async collect() {
          for (const [status, count] of Object.entries(await jobsByStatus())) this.set({ status }, count);
        },
      });
    }
  }

  /** One answered request; `route` is a template (`/cms/forms/getById/:id`) or a fixed path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let children = this.#children.get(key);
    if (!children) {
      const labels = { method, route, status: String(status) };
      children = { count: this.#requests.labels(labels), duration: this.#duration.labels(labels) };
      this.#children.set(key, children);
    }
    children.count.inc();
    children.duration.observe(seconds);
  }

  aiTokensCharged(tokens: number): void {
    this.#aiTokens.inc(tokens);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
