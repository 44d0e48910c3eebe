import { describe, expect, it } from 'vitest';
import { loadConfig } from './configuration.js';
import { ConfigurationError, validateEnvironment } from './env.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    validateEnvironment(env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
  return [];
};

describe('validateEnvironment', () => {
  it('applies defaults for an empty environment', () => {
    const env = validateEnvironment({});
    expect(env.TROVE_WEB_PORT).toBe(7745);
    expect(env.TROVE_DATA_DIR).toBe('./data');
    expect(env.TROVE_OPTIONS_ALLOW_REGISTRATION).toBe(true);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('reads numbers and booleans, and treats empty values as unset', () => {
    const env = validateEnvironment({
      TROVE_WEB_PORT: '8080',
      TROVE_OPTIONS_ALLOW_REGISTRATION: 'FALSE',
      TROVE_DEMO: '1',
      TROVE_WEB_MAX_UPLOAD_SIZE: '',
    });
    expect(env.TROVE_WEB_PORT).toBe(8080);
    expect(env.TROVE_OPTIONS_ALLOW_REGISTRATION).toBe(false);
    expect(env.TROVE_DEMO).toBe(true);
    expect(env.TROVE_WEB_MAX_UPLOAD_SIZE).toBe(10);
  });

  it('bounds the heap growth to 0–300 percent, 50 unless set', () => {
    expect(validateEnvironment({}).TROVE_HEAP_GROWTH_PERCENT).toBe(50);
    expect(validateEnvironment({ TROVE_HEAP_GROWTH_PERCENT: '0' }).TROVE_HEAP_GROWTH_PERCENT).toBe(
      0,
    );
    expect(problemsOf({ TROVE_HEAP_GROWTH_PERCENT: '301' })).toEqual([
      'TROVE_HEAP_GROWTH_PERCENT: must not be greater than 300 (got "301")',
    ]);
    expect(problemsOf({ TROVE_HEAP_GROWTH_PERCENT: 'lots' })).toEqual([
      'TROVE_HEAP_GROWTH_PERCENT: must be an integer number (got "lots")',
    ]);
  });

  it('lets an empty provider URL switch the provider off', () => {
    const env = validateEnvironment({
      TROVE_BARCODE_UPCITEMDB_URL: '',
      TROVE_BARCODE_OPENFOODFACTS_URL: '',
    });
    expect(env.TROVE_BARCODE_UPCITEMDB_URL).toBe('');
    expect(env.TROVE_BARCODE_OPENFOODFACTS_URL).toBe('');
    expect(validateEnvironment({}).TROVE_BARCODE_UPCITEMDB_URL).toMatch(/^https:/);
  });

  it('names every bad key at once', () => {
    const problems = problemsOf({
      TROVE_WEB_PORT: 'eighty',
      TROVE_OPTIONS_ALLOW_REGISTRATION: 'maybe',
      TROVE_LOG_LEVEL: 'loud',
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toBe('TROVE_WEB_PORT: must be an integer number (got "eighty")');
    expect(problems[1]).toMatch(/^TROVE_LOG_LEVEL: /);
    expect(problems[2]).toMatch(/^TROVE_OPTIONS_ALLOW_REGISTRATION: .*got "maybe"/);
  });

  it('never prints a secret value', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://user:hunter2@db/x' });
    expect(problems).toEqual([
      'DATABASE_URL: must be a postgres:// or postgresql:// URL (value hidden)',
    ]);
    expect(problems.join()).not.toContain('hunter2');
  });

  it('takes an OTLP protocol per signal, the general one where none is set', () => {
    const { otlpProtocols } = loadConfig({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: '',
    }).telemetry;
    expect(otlpProtocols).toEqual({ traces: 'grpc', metrics: 'http/json', logs: 'grpc' });
    expect(loadConfig({}).telemetry.otlpProtocols).toEqual({
      traces: 'http/protobuf',
      metrics: 'http/protobuf',
      logs: 'http/protobuf',
    });
    expect(problemsOf({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'thrift' })).toEqual([
      expect.stringMatching(/^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: .*got "thrift"/),
    ]);
  });

  it('requires the OIDC provider settings only when OIDC is enabled', () => {
    expect(problemsOf({ TROVE_OIDC_ENABLED: 'false' })).toEqual([]);
    const problems = problemsOf({ TROVE_OIDC_ENABLED: 'true' });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'TROVE_OIDC_ISSUER_URL',
      'TROVE_OIDC_CLIENT_ID',
      'TROVE_OIDC_CLIENT_SECRET',
    ]);
  });
});

describe('.env.example', () => {
  it('lists every variable, in the order env.ts declares them', async () => {
    const { readFileSync } = await import('node:fs');
    const { EnvironmentVariables } = await import('./env.js');
    const listed = readFileSync('.env.example', 'utf8')
      .split('\n')
      .map((line) => /^#?\s*([A-Z][A-Z0-9_]+)=/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(listed).toEqual(Object.keys(new EnvironmentVariables()));
  });
});

describe('SCIM settings', () => {
  it('need a token of at least 32 characters, never echoed, and the shared group with it', () => {
    expect(validateEnvironment({}).TROVE_SCIM_TOKEN).toBe('');
    expect(
      problemsOf({ TROVE_SCIM_TOKEN: 'short-secret', TROVE_OIDC_SHARED_GROUP: 'Acme' }),
    ).toEqual(['TROVE_SCIM_TOKEN: must be longer than or equal to 32 characters (value hidden)']);
    expect(problemsOf({ TROVE_SCIM_TOKEN: 'x'.repeat(32) })).toEqual([
      'TROVE_OIDC_SHARED_GROUP: is required when TROVE_SCIM_TOKEN is set (got "")',
    ]);
    const env = validateEnvironment({
      TROVE_SCIM_TOKEN: 'x'.repeat(32),
      TROVE_OIDC_SHARED_GROUP: 'Acme',
    });
    expect(env.TROVE_SCIM_TOKEN).toBe('x'.repeat(32));
  });
});

describe('TROVE_OIDC_ROLE_MAPPING', () => {
  it('maps provider groups to roles in the shared group, and to instance administrators', () => {
    const config = loadConfig({
      TROVE_OIDC_ROLE_MAPPING: ' it-staff=owner , it-staff=admin, auditors=viewer,root=admin',
    });
    expect(config.oidc.roleMapping).toEqual({ 'it-staff': 'owner', auditors: 'viewer' });
    expect(config.oidc.adminGroups).toEqual(['it-staff', 'root']);
    expect(config.oidc.groupGrants).toEqual([]);
    expect(loadConfig({}).oidc.adminGroups).toEqual([]);
    const message =
      'TROVE_OIDC_ROLE_MAPPING: must be a comma-separated list of <group>=<owner|user|viewer|admin> or <group>=<Trove group>:<owner|user|viewer>';
    expect(problemsOf({ TROVE_OIDC_ROLE_MAPPING: 'it=root' })).toEqual([
      `${message} (got "it=root")`,
    ]);
    expect(problemsOf({ TROVE_OIDC_ROLE_MAPPING: 'it=Stores:admin' })).toEqual([
      `${message} (got "it=Stores:admin")`,
    ]);
  });

  it('maps provider groups to a role in a named Trove group', () => {
    const config = loadConfig({
      TROVE_OIDC_ROLE_MAPPING:
        'staff=user, warehouse team = Stores: Main hall:owner ,auditors=Stores: Main hall:viewer',
    });
    expect(config.oidc.roleMapping).toEqual({ staff: 'user' });
    expect(config.oidc.groupGrants).toEqual([
      { providerGroup: 'warehouse team', troveGroup: 'Stores: Main hall', role: 'owner' },
      { providerGroup: 'auditors', troveGroup: 'Stores: Main hall', role: 'viewer' },
    ]);
  });
});
