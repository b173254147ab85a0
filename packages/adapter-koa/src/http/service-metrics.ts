/**
 * The Prometheus metrics of `GET /metrics` (CONTRACT §8): requests and their durations by
 * method, route template and status; outbox and webhook jobs by status, read at scrape time (one
 * count shared by the scrapes of `JOB_COUNTS_MAX_AGE_MS`); AI tokens
 * charged; the process metrics. Labels are route templates, never raw paths, so ids never become
 * label values; an answer written on the socket (no request was read) counts under `unmatched`.
 *
 * The request counter and histogram are kept here rather than in prom-client's: its children
 * hash their label set on every observation, which showed in the benchmark (decision 0730). One
 * entry per label set holds the count, the sum and the bucket counts; a request costs three map
 * look-ups and a walk to its bucket. prom-client keeps the rest, and its text comes first.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

export interface MetricsSources {
  /** Outbox jobs by status, asked at each scrape. */
  readonly jobsByStatus?: () => Promise<Readonly<Record<string, number>>>;
  /** Webhook deliveries (one job per event and webhook) by status, asked at each scrape. */
  readonly webhookJobsByStatus?: () => Promise<Readonly<Record<string, number>>>;
}

/** What a request outside every route is labelled with (an unknown path must not add label values). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The method label of an answer written on the socket whose request line was not read, or named a method Node does not know. */
export const UNKNOWN_METHOD = 'unknown';

/**
 * How long the job counts of one scrape serve the next ones. `/metrics` needs no key, and on
 * MongoDB each count reads an index entry per job kept (`NOTIFY_KEEP_HOURS` of finished jobs):
 * without a bound, every request to `/metrics` would make the database do that again
 * (docs/decisions/0840-job-counts-shared-between-scrapes.md).
 */
export const JOB_COUNTS_MAX_AGE_MS = 5_000;

export interface ServiceMetricsOptions {
  /** Default `JOB_COUNTS_MAX_AGE_MS`. */
  readonly jobCountsMaxAgeMs?: number;
  /** Milliseconds on a clock that only goes forward; default `performance.now`. */
  readonly now?: () => number;
}

/** Upper bounds of the duration buckets, in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface RequestSeries {
  readonly labels: string;
  /** Answers with a duration: the histogram's count. */
  count: number;
  /** Answers written on the socket, which have none: in the request count only. */
  withoutDuration: number;
  sum: number;
  /** Observations per bucket (not cumulative: summed up when written). */
  readonly buckets: Float64Array;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #aiTokens: Counter;
  /** route → status → method → series: three look-ups of interned keys, no key string built per request. */
  readonly #series = new Map<string, Map<number, Map<string, RequestSeries>>>();

  constructor(sources: MetricsSources = {}, options: ServiceMetricsOptions = {}) {
    collectDefaultMetrics({ register: this.registry });
    const maxAgeMs = options.jobCountsMaxAgeMs ?? JOB_COUNTS_MAX_AGE_MS;
    const now = options.now ?? (() => performance.now());
    this.#aiTokens = new Counter({
      name: 'ai_tokens_charged_total',
      help: 'AI provider tokens charged to tenants (usage.total_tokens of successful calls)',
      registers: [this.registry],
    });
    const shared = (count: MetricsSources['jobsByStatus']) => count && sharedCount(count, maxAgeMs, now);
    this.#jobGauge('outbox_jobs', 'Notification outbox jobs by status', shared(sources.jobsByStatus));
    this.#jobGauge('webhook_jobs', 'Webhook deliveries (one per event and webhook) by status', shared(sources.webhookJobsByStatus));
  }

  #jobGauge(name: string, help: string, countByStatus: MetricsSources['jobsByStatus']): void {
    if (!countByStatus) return;
    new Gauge({
      name,
      help,
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        for (const [status, count] of Object.entries(await countByStatus())) this.set({ status }, count);
      },
    });
  }

  /** One answered request; `route` is a template (`/cms/forms/getById/:id`) or a fixed path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const series = this.#seriesOf(method, route, status);
    series.count += 1;
    series.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i += 1) {
      if (seconds <= BUCKETS[i]!) {
        series.buckets[i]! += 1;
        break;
      }
    }
  }

  /**
   * One answer Node's server made us write on the socket (431, 400, 408 before a request was
   * read), counted under `unmatched`: no route was found for it. `method` is the request line's
   * when Node knows that method, else `unknown`. It has no duration: no time is known at which
   * its request reached the service, so the histogram leaves it out.
   */
  countSocketAnswer(method: string, status: number): void {
    this.#seriesOf(method, UNMATCHED_ROUTE, status).withoutDuration += 1;
  }

  #seriesOf(method: string, route: string, status: number): RequestSeries {
    let byStatus = this.#series.get(route);
    if (!byStatus) this.#series.set(route, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (!series) {
      const labels = `method="${escape(method)}",route="${escape(route)}",status="${status}"`;
      series = { labels, count: 0, withoutDuration: 0, sum: 0, buckets: new Float64Array(BUCKETS.length) };
      byMethod.set(method, series);
    }
    return series;
  }

  aiTokensCharged(tokens: number): void {
    this.#aiTokens.inc(tokens);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async text(): Promise<string> {
    return (await this.registry.metrics()) + this.#requestText();
  }

  #requestText(): string {
    const series = [...this.#series.values()].flatMap((byStatus) => [...byStatus.values()].flatMap((byMethod) => [...byMethod.values()]));
    let out = '# HELP http_requests_total HTTP requests answered, by method, route template and status\n# TYPE http_requests_total counter\n';
    for (const one of series) out += `http_requests_total{${one.labels}} ${one.count + one.withoutDuration}\n`;
    out +=
      '# HELP http_request_duration_seconds Time from the request reaching the service to its answer being decided\n' +
      '# TYPE http_request_duration_seconds histogram\n';
    for (const one of series) {
      if (one.count === 0) continue; // socket answers only: nothing was timed
      let cumulative = 0;
      BUCKETS.forEach((bound, i) => {
        cumulative += one.buckets[i]!;
        out += `http_request_duration_seconds_bucket{le="${bound}",${one.labels}} ${cumulative}\n`;
      });
      out += `http_request_duration_seconds_bucket{le="+Inf",${one.labels}} ${one.count}\n`;
      out += `http_request_duration_seconds_sum{${one.labels}} ${one.sum}\n`;
      out += `http_request_duration_seconds_count{${one.labels}} ${one.count}\n`;
    }
    return out;
  }
}

type Counts = Readonly<Record<string, number>>;

/**
 * `count`, asked at most once per `maxAgeMs`: a scrape within that time of the last count's start
 * takes its result, and one while a count runs waits for that count, however long it takes (a
 * slow database gets no second count on top). A count that fails is not kept: the next scrape asks
 * again.
 */
function sharedCount(count: () => Promise<Counts>, maxAgeMs: number, now: () => number): () => Promise<Counts> {
  let last: Promise<Counts> | undefined;
  let startedAt = 0;
  let running = false;
  return () => {
    const at = now();
    if (last && (running || at - startedAt < maxAgeMs)) return last;
    const started = count();
    last = started;
    startedAt = at;
    running = true;
    // No other count starts while this one runs, so `last` is still this one when it settles.
    const settled = (kept: boolean) => () => {
      running = false;
      if (!kept) last = undefined;
    };
    started.then(settled(true), settled(false));
    return started;
  };
}

/** A label value as the text format wants it. */
function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
