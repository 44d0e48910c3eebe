import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { PostgresProxy } from '../support/postgres-proxy.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTroveProcess, type TroveProcess } from '../support/trove-process.js';
import { freePort } from './telemetry-helpers.js';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const ROOT = process.cwd();
const RULES = path.join(ROOT, 'deploy/prometheus/trove-alerts.yml');
const RULE_TESTS = path.join(ROOT, 'deploy/prometheus/trove-alerts.test.yml');
const DASHBOARD = path.join(ROOT, 'docs/grafana-dashboard.json');

interface QueryResult {
  status: string;
  data: {
    resultType: string;
    result: { metric: Record<string, string>; value: [number, string] }[];
  };
}

/**
 * Trove as an operator watches it: Debian's promtool checks `/metrics` and runs the alert rules'
 * unit tests, and a real Prometheus scrapes a Trove driven through sign-ins, creates, 4xx, a
 * database outage (503), a failing notifier and a failing job; every panel of the dashboard and
 * every alert rule is then evaluated there.
 */
describe('Prometheus: /metrics, the dashboard and the alert rules', () => {
  let database: TestDatabase;
  let proxy: PostgresProxy;
  let trove: TroveProcess;
  let metricsPort: number;
  let prometheusPort: number;
  let prometheus: ChildProcess;
  let workDir: string;
  let owner: Session;
  let http: ReturnType<typeof supertest>;

  const query = async (expression: string): Promise<QueryResult> => {
    const url = `http://127.0.0.1:${prometheusPort}/api/v1/query?query=${encodeURIComponent(expression)}`;
    const response = await fetch(url);
    const body = (await response.json()) as QueryResult & { error?: string };
    expect(response.status, `${expression}: ${body.error ?? ''}`).toBe(200);
    return body;
  };
  /** Waits until Prometheus has scraped Trove `count` more times. */
  const scrapes = async (count: number): Promise<void> => {
    const scraped = async () =>
      Number((await query('count_over_time(up{job="trove"}[10m])')).data.result[0]?.value[1] ?? 0);
    const start = await scraped();
    await vi.waitFor(async () => expect(await scraped()).toBeGreaterThanOrEqual(start + count), {
      timeout: 30_000,
      interval: 250,
    });
  };

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'trove-test-prometheus-'));
    database = await createTestDatabase();
    const target = new URL(database.url);
    proxy = await PostgresProxy.start({ host: target.hostname, port: Number(target.port) });
    [metricsPort, prometheusPort] = await Promise.all([freePort(), freePort()]);
    trove = await startTroveProcess({
      env: {
        DATABASE_URL: proxy.urlFor(database.url),
        TROVE_METRICS_PORT: String(metricsPort),
        // Spans are made (SQL durations are measured with them) and sent nowhere.
        TROVE_OTEL_ENABLED: 'true',
        TROVE_JOBS_POLL_INTERVAL: '1',
        TROVE_OUTBOUND_ALLOW_NETS: '127.0.0.1/32',
        TROVE_NOTIFIER_RETRY_LIMIT: '0',
      },
    });
    http = supertest(trove.baseUrl);
    // The rules as shipped, but firing without waiting: the test runs for seconds, not minutes.
    const rules = (await readFile(RULES, 'utf8')).replace(/^(\s+)for: .+$/gm, '$1for: 0s');
    await writeFile(path.join(workDir, 'rules.yml'), rules);
    await writeFile(
      path.join(workDir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'rule_files:',
        `  - ${path.join(workDir, 'rules.yml')}`,
        'scrape_configs:',
        '  - job_name: trove',
        '    static_configs:',
        `      - targets: ['127.0.0.1:${metricsPort}']`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${path.join(workDir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(workDir, 'data')}`,
        `--web.listen-address=127.0.0.1:${prometheusPort}`,
      ],
      { stdio: 'ignore' },
    );
    await vi.waitFor(
      async () =>
        expect((await fetch(`http://127.0.0.1:${prometheusPort}/-/ready`)).status).toBe(200),
      { timeout: 30_000, interval: 200 },
    );
    owner = await signUp({ http }, { name: 'Ada', password: 'owner password 7Q' });
  });
  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    await trove?.dispose();
    await proxy?.close();
    await database?.drop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const as = (method: 'get' | 'post' | 'put' | 'patch', url: string) =>
    http[method](url).set('Authorization', owner.authorization);

  it('has /metrics that promtool check metrics finds nothing in, counters there from the start', async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const checked = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect({ status: checked.status, out: checked.stdout + checked.stderr }).toEqual({
      status: 0,
      out: '',
    });
    for (const series of [
      'trove_auth_sign_ins_total{outcome="throttled"} 0',
      'trove_jobs_failed_total{trove_job_name="notifiers.deliver"} 0',
      'trove_notifier_deliveries_total{scheme="ntfy",outcome="failure"} 0',
      'trove_idempotency_replays_total 0',
      'trove_backups_total{outcome="failure"} 0',
      'trove_backup_verifications_total{outcome="failure"} 0',
      'trove_jobs_failed_total{trove_job_name="instance-backup.run"} 0',
      'trove_http_server_errors_total{http_request_method="GET",http_route="/api/v1/tags",http_response_status_code="503"} 0',
    ]) {
      expect(text).toContain(series);
    }
    expect(text).toMatch(/^target_info\{.*service_instance_id="[^"]+".*\} 1$/m);
    expect(text).toMatch(/^trove_build_info\{version="[^"]+",nodejs_version="[^"]+"\} 1$/m);
    expect(text).not.toMatch(/server_port=/);
  });

  it('passes the alert rules’ unit tests with promtool test rules', () => {
    const tested = spawnSync(PROMTOOL, ['test', 'rules', RULE_TESTS], { encoding: 'utf8' });
    expect(tested.stdout + tested.stderr).toContain('SUCCESS');
    expect(tested.status).toBe(0);
  });

  it('gives every dashboard panel data and fires the alerts the traffic calls for', async () => {
    const alerts = async () =>
      (
        (await (await fetch(`http://127.0.0.1:${prometheusPort}/api/v1/alerts`)).json()) as {
          data: { alerts: { labels: { alertname: string }; state: string }[] };
        }
      ).data.alerts
        .filter((alert) => alert.state === 'firing')
        .map((alert) => alert.labels.alertname);
    // A baseline first: the counters' zeros are scraped before anything happens.
    await scrapes(2);
    // Traffic: sign-ins, creates, reads, 4xx, an unknown method, a failing notifier and job.
    await http.post('/api/v1/users/login').send({ username: owner.email, password: 'wrong' });
    const created = await as('post', '/api/v1/entities').send({ name: 'Coffee', quantity: 5 });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    await as('get', `/api/v1/entities/${id}`).expect(200);
    await as('get', '/api/v1/entities/00000000-0000-4000-8000-000000000000').expect(404);
    await http.get('/api/v1/nowhere').expect(404);
    await as('post', '/api/v1/notifiers')
      .send({ name: 'closed port', url: `generic+http://127.0.0.1:${await freePort()}/hook` })
      .expect(201);
    await as('put', `/api/v1/entities/${id}/stock`).send({ minQuantity: 2 }).expect(200);
    await as('patch', `/api/v1/entities/${id}`).send({ quantity: 1 }).expect(200);
    await vi.waitFor(
      async () => {
        const failed = await query(
          'sum(trove_jobs_failed_total{trove_job_name="notifiers.deliver"})',
        );
        expect(Number(failed.data.result[0]?.value[1])).toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 500 },
    );
    // The database goes away: requests are answered 503, then it comes back.
    // Requests go on meanwhile, over several scrapes.
    proxy.stop();
    for (let round = 0; round < 4; round += 1) {
      for (let i = 0; i < 5; i += 1) expect((await as('get', '/api/v1/tags')).status).toBe(503);
      await scrapes(1);
    }
    const during = await query('min(trove_db_available{job="trove"})');
    expect(during.data.result[0]?.value[1]).toBe('0');
    await vi.waitFor(async () => expect(await alerts()).toContain('TroveDatabaseUnavailable'), {
      timeout: 15_000,
      interval: 500,
    });
    proxy.resume();
    await vi.waitFor(async () => expect((await as('get', '/api/v1/tags')).status).toBe(200), {
      timeout: 30_000,
      interval: 250,
    });
    await scrapes(3);

    // Every panel's expression, with the dashboard's variables as Grafana fills them.
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const values: Record<string, string> = {};
    /** What the panel shows beside its zeros (the note of a run reads this). */
    const summary: Record<string, string> = {};
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        const expression = target.expr
          .replaceAll('$job', 'trove')
          .replaceAll('$instance', '.*')
          .replaceAll('$__rate_interval', '1m');
        const result = await query(expression);
        expect(result.data.result.length, `${panel.title}: ${expression}`).toBeGreaterThan(0);
        values[panel.title] = result.data.result.map((one) => one.value[1]).join(' ');
        const shown = result.data.result.filter((one) => one.value[1] !== '0');
        summary[panel.title] = shown.length > 0 ? shown.map((one) => one.value[1]).join(' ') : '0';
      }
    }
    expect(Number(values['Scrape health (up)'])).toBe(1);
    // The first errors of a route count: its series was there at 0 before the outage.
    const errorRates = values['Server errors (5xx) by route'].split(' ').map(Number);
    expect(Math.max(...errorRates)).toBeGreaterThan(0);

    // Every rule evaluates without error; those the traffic calls for fire.
    const rules = (await (
      await fetch(`http://127.0.0.1:${prometheusPort}/api/v1/rules`)
    ).json()) as {
      data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] };
    };
    const evaluated = rules.data.groups.flatMap((group) => group.rules);
    expect(evaluated.map((rule) => rule.name).sort()).toEqual([
      'TroveBackupFailed',
      'TroveDatabasePoolSaturated',
      'TroveDatabaseUnavailable',
      'TroveDown',
      'TroveHighErrorRatio',
      'TroveJobFailures',
      'TroveRestarted',
      'TroveSlowRequests',
    ]);
    for (const rule of evaluated)
      expect([rule.name, rule.health, rule.lastError ?? '']).toEqual([rule.name, 'ok', '']);
    await vi.waitFor(
      async () =>
        expect(await alerts()).toEqual(
          expect.arrayContaining(['TroveHighErrorRatio', 'TroveJobFailures']),
        ),
      { timeout: 15_000, interval: 500 },
    );
    const firing = await alerts();
    expect(firing).not.toContain('TroveDown');
    expect(firing).not.toContain('TroveRestarted');
    expect(firing).not.toContain('TroveBackupFailed');
    console.info(JSON.stringify({ panels: summary, firing: [...new Set(firing)].sort() }, null, 1));
  });
});
