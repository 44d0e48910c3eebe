import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTroveProcess, type TroveProcess } from '../support/trove-process.js';
import {
  startOtlpReceiver,
  type KeyValue,
  type OtlpReceiver,
  type OtlpSignal,
} from './otlp-receiver.js';
import { eventually, otlpEnv } from './telemetry-helpers.js';

interface Resourced {
  resource?: { attributes?: KeyValue[] };
}

/** The resources of every export of `signal` received so far, as plain attribute maps. */
function resourcesOf(receiver: OtlpReceiver, signal: OtlpSignal): Record<string, unknown>[] {
  const key = { traces: 'resourceSpans', metrics: 'resourceMetrics', logs: 'resourceLogs' }[signal];
  return receiver.requests
    .filter((request) => request.signal === signal)
    .flatMap((request) => (JSON.parse(request.body) as Record<string, Resourced[]>)[key] ?? [])
    .map((one) =>
      Object.fromEntries(
        (one.resource?.attributes ?? []).map((attribute) => [
          attribute.key,
          Object.values(attribute.value)[0],
        ]),
      ),
    );
}

/**
 * Two instances pushing to one collector, each with its own OTEL_RESOURCE_ATTRIBUTES: every span,
 * metric and log record says which instance sent it.
 */
describe('OTEL_RESOURCE_ATTRIBUTES on every signal', () => {
  let receiver: OtlpReceiver;
  const instances: TroveProcess[] = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    for (const name of ['trove-a', 'trove-b']) {
      instances.push(
        await startTroveProcess({
          env: {
            ...otlpEnv(receiver, 'http/json'),
            OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${name},deployment.environment.name=test%20${name}`,
          },
        }),
      );
    }
  });
  afterAll(async () => {
    for (const instance of instances) await instance.dispose();
    await receiver?.close();
  });

  it('tells the two instances apart on traces, metrics and logs, with the service name and version', async () => {
    for (const instance of instances) {
      await supertest(instance.baseUrl).get('/api/v1/status').expect(200);
    }
    for (const signal of ['traces', 'metrics', 'logs'] as const) {
      const seen = await eventually(() => {
        const ids = new Set(resourcesOf(receiver, signal).map((one) => one['service.instance.id']));
        return ids.has('trove-a') && ids.has('trove-b') ? resourcesOf(receiver, signal) : undefined;
      });
      for (const name of ['trove-a', 'trove-b']) {
        expect(
          seen.find((one) => one['service.instance.id'] === name),
          `${signal} of ${name}`,
        ).toMatchObject({
          'service.name': 'trove',
          'service.version': expect.any(String),
          'deployment.environment.name': `test ${name}`,
        });
      }
    }
  });
});
