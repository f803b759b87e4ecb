import { expect } from 'vitest';

/** One sample as Prometheus reads it: its labels and value; a histogram's series has its count and sum instead. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
  count?: number;
  sum?: number;
}

export interface Family {
  name: string;
  /** As the TYPE line says: counter, gauge, histogram, summary, untyped. */
  type: string;
  help: string;
  samples: Sample[];
}

/** Scrapes a metrics endpoint and reads the answer as Prometheus does. */
export async function scrape(url: string): Promise<Map<string, Family>> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await response.text());
}

/** `name{label="value",…} number`, a label value with \\, \" and \n escaped. */
const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/y;

/**
 * Prometheus's text exposition format (0.0.4), strictly: a line that is not a comment, a HELP or
 * TYPE line or a well-formed sample fails the test, as it would fail a scrape. The one library in
 * the registry for this (parse-prometheus-text-format 1.1.1) folds every labelled histogram series
 * of a family into one, so the route and status labels this checks would be lost (decision record 086).
 */
export function parseMetrics(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    let found = families.get(name);
    if (!found) families.set(name, (found = { name, type: 'untyped', help: '', samples: [] }));
    return found;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'HELP') family(meta[2]!).help = meta[3]!;
      else family(meta[2]!).type = meta[3]!;
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE_LINE.exec(line);
    if (!sample) throw new Error(`Not a Prometheus sample line: ${line}`);
    const [, name, labelText = '', valueText] = sample;
    const labels = parseLabels(labelText, line);
    const value = sampleValue(valueText!, line);

    const histogram = /^(.*)_(bucket|sum|count)$/.exec(name!);
    const parent = histogram && families.get(histogram[1]!)?.type === 'histogram' ? families.get(histogram[1]!)! : undefined;
    if (!parent) {
      family(name!).samples.push({ labels, value });
      continue;
    }
    const { le, ...seriesLabels } = labels;
    let series = parent.samples.find((existing) => sameLabels(existing.labels, seriesLabels));
    if (!series) parent.samples.push((series = { labels: seriesLabels, value: Number.NaN }));
    if (histogram![2] === 'count') series.count = value;
    if (histogram![2] === 'sum') series.sum = value;
    if (histogram![2] === 'bucket' && le === undefined) throw new Error(`A bucket without le: ${line}`);
  }
  return families;
}

/** A float as Prometheus reads one (Go's ParseFloat: NaN and Inf in any case; prom-client writes `Nan`). */
function sampleValue(text: string, line: string): number {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special) return special[2]!.toLowerCase() === 'nan' ? Number.NaN : special[1] === '-' ? -Infinity : Infinity;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`Not a sample value: ${line}`);
  return value;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`Malformed labels: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_escape, character: string) => (character === 'n' ? '\n' : character));
  }
  return labels;
}

function sameLabels(a: Record<string, string>, b: Record<string, string>) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** A family's first sample whose labels include these (undefined: none). */
export function sampleOf(metrics: Map<string, Family>, name: string, labels: Record<string, string> = {}): Sample | undefined {
  return metrics.get(name)?.samples.find((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}
