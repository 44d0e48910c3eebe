import { createServer, type Server } from 'node:http';
import { PrometheusSerializer, type PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { withUnitSuffix } from './metrics.js';

/**
 * The metrics with their unit in their Prometheus name (`http_server_request_duration_seconds`,
 * `process_memory_usage_bytes`), as OpenTelemetry's Prometheus compatibility rules say; an
 * annotation in braces adds nothing, and an `*.info` metric keeps its name.
 */
function withUnitSuffixes(resourceMetrics: ResourceMetrics): ResourceMetrics {
  return {
    ...resourceMetrics,
    scopeMetrics: resourceMetrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map((metric) => {
        const { name, unit } = metric.descriptor;
        const named = withUnitSuffix(name, unit);
        return named === name
          ? metric
          : { ...metric, descriptor: { ...metric.descriptor, name: named } };
      }),
    })),
  };
}

/**
 * The separate listener answering `GET /metrics` with the Prometheus text format (any other path
 * is 404), on TROVE_METRICS_HOST:TROVE_METRICS_PORT.
 */
export async function servePrometheus(
  exporter: PrometheusExporter,
  at: { host: string; port: number },
): Promise<Server> {
  const serializer = new PrometheusSerializer(undefined, false, undefined, false, true);
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.statusCode = 404;
      response.end();
      return;
    }
    exporter.collect().then(
      ({ resourceMetrics }) => {
        response.setHeader('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
        response.end(serializer.serialize(withUnitSuffixes(resourceMetrics)));
      },
      (error: unknown) => {
        response.statusCode = 503;
        response.end(`# failed to collect metrics: ${String(error)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
  return server;
}
