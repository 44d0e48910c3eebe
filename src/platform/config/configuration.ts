import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { ConfigurationError, validateEnvironment, type OTLP_PROTOCOLS } from './env.js';

/** An encoding of OTLP exports. */
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The typed view of the configuration; code reads these namespaces, never process.env. */
export interface TroveConfig {
  web: {
    port: number;
    host: string;
    maxUploadBytes: number;
    jsonBodyLimitBytes: number;
    /** How long a stopping server keeps serving, not ready, before it closes its listener. */
    shutdownDrainMs: number;
    shutdownTimeoutMs: number;
    trustProxy: boolean;
    /** Absolute path of the single-page app served at `/`; empty: Trove's own pages. */
    uiDir: string;
    /** Whether the web UI's entry page is served with a link to the console added. */
    consoleLink: boolean;
  };
  database: {
    /** Set when an external PostgreSQL is used; otherwise the embedded server is started. */
    url: string | undefined;
    embeddedPort: number;
    poolSize: number;
    /** How long a request waits for a pooled connection. */
    poolWaitMs: number;
  };
  jobs: {
    /** Whether this instance runs queued jobs and schedules, or only queues them. */
    workersEnabled: boolean;
    pollIntervalSeconds: number;
  };
  backups: {
    /** Largest backup zip accepted for import. */
    maxImportBytes: number;
    /** Seconds an export or import job may run before it is run again elsewhere. */
    jobExpirySeconds: number;
    /** Directory of instance backups. */
    instanceDir: string;
    /** Cron expression of the scheduled instance backup; empty for none. */
    schedule: string;
    /** Instance backups kept per period (the newest of each). */
    keep: { daily: number; weekly: number; monthly: number };
    /** Whether instance backups stay in `instanceDir` (else only in the bucket). */
    localCopy: boolean;
    /** The bucket that receives a copy of each instance backup; null for none. */
    s3: TroveConfig['storage']['s3'] | null;
    /** How instance backups are encrypted (age); null: they are not. */
    encryption: BackupEncryptionSettings | null;
  };
  /** SMTP settings; mail is sent only when `host` and `from` are set. */
  mail: {
    host: string;
    port: number;
    username: string;
    password: string;
    from: string;
    /** `starttls`: upgrade and require TLS; `implicit`: TLS from the start; `none`: plain. */
    tls: 'starttls' | 'implicit' | 'none';
    tlsRejectUnauthorized: boolean;
  };
  changeFeed: {
    /** Between pings, which also re-check every socket's credential. */
    pingIntervalMs: number;
  };
  audit: {
    /** Days an entity's change history is kept. */
    retentionDays: number;
  };
  /** How far the JavaScript heap may grow past its live data, in percent (0: V8 decides). */
  heapGrowthPercent: number;
  dataDir: string;
  log: { level: string; format: 'json' | 'text' };
  options: {
    allowRegistration: boolean;
    allowLocalLogin: boolean;
    hostname: string;
    /** The instance administrators' e-mail addresses, in lower case. */
    adminEmails: string[];
    demo: boolean;
    demoPassword: string;
  };
  auth: {
    tokenSecret: string;
    apiKeyPepper: string;
    rateLimit: {
      enabled: boolean;
      windowMs: number;
      maxAttempts: number;
      baseBackoffMs: number;
      maxBackoffMs: number;
    };
    credentialCacheSize: number;
  };
  build: { version: string; commit: string; buildTime: string };
  oidc: {
    enabled: boolean;
    issuerUrl: string;
    clientId: string;
    clientSecret: string;
    buttonText: string;
    autoRedirect: boolean;
    scope: string;
    allowedGroups: string[];
    groupClaim: string;
    emailClaim: string;
    nameClaim: string;
    emailVerifiedClaim: string;
    verifyEmail: boolean;
    linkByEmail: boolean;
    sharedGroup: string;
    /** Provider group to role in the shared group. */
    roleMapping: Record<string, 'owner' | 'user' | 'viewer'>;
    /**
     * Provider groups whose members are instance administrators (`<group>=admin` in the role
     * mapping); empty leaves the superuser flag as it is.
     */
    adminGroups: string[];
    /**
     * Provider groups whose members join a Trove group other than the shared one, with a role
     * (`<group>=<Trove group>:<role>` in the role mapping): the group is found by its name, as the
     * shared group is (`oidcSharedGroupKey`), and created on first use.
     */
    groupGrants: ProviderGroupGrant[];
    stateExpiryMs: number;
    requestTimeoutMs: number;
    /** Post-logout redirect URI for RP-initiated logout; empty: sign-out stays local. */
    logoutRedirect: string;
  };
  /** SCIM 2.0 provisioning of the shared SSO group's users; off while `token` is empty. */
  scim: { token: string };
  storage: {
    driver: 'local' | 's3';
    s3: {
      endpoint: string;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
      prefix: string;
    };
  };
  thumbnails: { enabled: boolean; width: number; height: number };
  reminders: {
    /** Hour of the day (in `timeZone`) at which reminders go out. */
    hour: number;
    /** IANA time zone of that hour and of "today". */
    timeZone: string;
    /** Days ahead in which an ending warranty is announced; 0 announces none. */
    warrantyDays: number;
    /** Days ahead in which a stock expiry day is announced; 0 announces none. */
    expiryDays: number;
  };
  barcode: {
    upcitemdbUrl: string;
    upcitemdbKey: string;
    openFoodFactsUrl: string;
    timeoutMs: number;
    cacheTtlMs: number;
  };
  /** CIDRs outbound requests may reach although private, loopback or link-local. */
  outboundAllowNets: string[];
  labelMaker: {
    printCommand: string;
    width: number;
    height: number;
    padding: number;
    margin: number;
    fontSize: number;
    additionalInformation: string;
  };
  notifiers: {
    /** Empty: a key generated once and kept in the database. */
    encryptionKey: string;
    retryDelaySeconds: number;
    retryLimit: number;
    timeoutMs: number;
    /** Test messages per minute, per user and per client address. */
    testRateLimit: number;
  };
  /** OpenTelemetry; `enabled` false and no `metrics` listener: nothing of it is loaded. */
  telemetry: {
    /** Traces (and logs with trace ids, OTLP export) are on. */
    enabled: boolean;
    /** The separate Prometheus listener, when TROVE_METRICS_PORT is set. */
    metrics: { port: number; host: string } | undefined;
    serviceName: string;
    /** Whether OTEL_SERVICE_NAME was set (it then wins over a `service.name` resource attribute). */
    serviceNameSet: boolean;
    /** Trove's version (`service.version`). */
    serviceVersion: string;
    /** OTEL_RESOURCE_ATTRIBUTES, decoded. */
    resourceAttributes: Record<string, string>;
    /** OTLP base URL; empty: nothing is pushed. */
    otlpEndpoint: string;
    /** The encoding of each signal's exports. */
    otlpProtocols: Record<'traces' | 'metrics' | 'logs', OtlpProtocol>;
    sampler: string;
    samplerRatio: number;
    spanExportDelayMs: number;
    metricExportIntervalMs: number;
    exportLogs: boolean;
  };
}

const MEGABYTE = 1024 * 1024;

const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** A provider group granting membership of a named Trove group, with a role. */
export interface ProviderGroupGrant {
  providerGroup: string;
  troveGroup: string;
  role: 'owner' | 'user' | 'viewer';
}

/**
 * The entries of TROVE_OIDC_ROLE_MAPPING, trimmed: `<group>=<role>` (the shared group, or `admin`)
 * without a Trove group, `<group>=<Trove group>:<role>` with one (split at its last colon).
 */
const roleMappingEntries = (
  value: string,
): { group: string; troveGroup: string | null; role: string }[] =>
  splitList(value).map((entry) => {
    const at = entry.indexOf('=');
    const group = entry.slice(0, at).trim();
    const target = entry.slice(at + 1);
    const colon = target.lastIndexOf(':');
    return colon === -1
      ? { group, troveGroup: null, role: target.trim() }
      : { group, troveGroup: target.slice(0, colon).trim(), role: target.slice(colon + 1).trim() };
  });

/** `key=value,key=value` (values percent-encoded) as attributes; a value that will not decode stays as written. */
function resourceAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of splitList(text)) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Kept as written.
    }
    attributes[key] = value;
  }
  return attributes;
}

function packageVersion(): string {
  const file = path.join(import.meta.dirname, '..', '..', '..', 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The absolute path of TROVE_WEB_UI_DIR ('' when unset), which must be a directory holding the
 * app's `index.html`.
 */
function webUiDirectory(dir: string): string {
  if (dir.trim() === '') return '';
  const resolved = path.resolve(dir);
  const problem = (text: string) =>
    new ConfigurationError([`TROVE_WEB_UI_DIR: ${text} (got "${dir}")`]);
  let info;
  try {
    info = statSync(resolved);
  } catch {
    throw problem('no such directory');
  }
  if (!info.isDirectory()) throw problem('not a directory');
  if (!existsSync(path.join(resolved, 'index.html'))) {
    throw problem('holds no index.html: name the built app, such as ./web-ui from npm run web-ui');
  }
  return resolved;
}

/**
 * Builds the configuration from an environment. With no argument it reads `process.env`
 * after loading an optional `.env` file from the working directory.
 */
export function loadConfig(raw?: NodeJS.ProcessEnv): TroveConfig {
  if (raw === undefined) {
    loadDotenv({ quiet: true });
    raw = process.env;
  }
  const env = validateEnvironment(raw);
  return {
    web: {
      port: env.TROVE_WEB_PORT,
      host: env.TROVE_WEB_HOST,
      maxUploadBytes: env.TROVE_WEB_MAX_UPLOAD_SIZE * MEGABYTE,
      jsonBodyLimitBytes: 1 * MEGABYTE,
      shutdownDrainMs: env.TROVE_WEB_SHUTDOWN_DRAIN * 1000,
      shutdownTimeoutMs: env.TROVE_WEB_SHUTDOWN_TIMEOUT * 1000,
      trustProxy: env.TROVE_OPTIONS_TRUST_PROXY,
      uiDir: webUiDirectory(env.TROVE_WEB_UI_DIR),
      consoleLink: env.TROVE_WEB_UI_CONSOLE_LINK,
    },
    database: {
      url: env.DATABASE_URL,
      embeddedPort: env.TROVE_DATABASE_EMBEDDED_PORT,
      poolSize: env.TROVE_DATABASE_POOL_SIZE,
      poolWaitMs: env.TROVE_DATABASE_POOL_WAIT * 1000,
    },
    jobs: {
      workersEnabled: env.TROVE_WORKERS_ENABLED,
      pollIntervalSeconds: env.TROVE_JOBS_POLL_INTERVAL,
    },
    backups: {
      maxImportBytes: env.TROVE_BACKUP_MAX_IMPORT_SIZE * MEGABYTE,
      jobExpirySeconds: env.TROVE_BACKUP_JOB_EXPIRY,
      instanceDir: path.resolve(
        env.TROVE_BACKUP_DIR.trim() || path.join(env.TROVE_DATA_DIR, 'backups'),
      ),
      schedule: backupSchedule(env.TROVE_BACKUP_SCHEDULE.trim(), Boolean(env.DATABASE_URL)),
      keep: {
        daily: env.TROVE_BACKUP_KEEP_DAILY,
        weekly: env.TROVE_BACKUP_KEEP_WEEKLY,
        monthly: env.TROVE_BACKUP_KEEP_MONTHLY,
      },
      localCopy: env.TROVE_BACKUP_LOCAL_COPY,
      s3: env.TROVE_BACKUP_S3_BUCKET.trim()
        ? {
            bucket: env.TROVE_BACKUP_S3_BUCKET.trim(),
            prefix: env.TROVE_BACKUP_S3_PREFIX,
            endpoint: env.TROVE_BACKUP_S3_ENDPOINT || env.TROVE_STORAGE_S3_ENDPOINT,
            region: env.TROVE_BACKUP_S3_REGION || env.TROVE_STORAGE_S3_REGION,
            accessKeyId: env.TROVE_BACKUP_S3_ACCESS_KEY_ID || env.TROVE_STORAGE_S3_ACCESS_KEY_ID,
            secretAccessKey:
              env.TROVE_BACKUP_S3_SECRET_ACCESS_KEY || env.TROVE_STORAGE_S3_SECRET_ACCESS_KEY,
            forcePathStyle: env.TROVE_BACKUP_S3_FORCE_PATH_STYLE,
          }
        : null,
      encryption: backupEncryption(env.TROVE_BACKUP_PASSPHRASE, env.TROVE_BACKUP_AGE_KEY),
    },
    mail: {
      host: env.TROVE_MAILER_HOST.trim(),
      port: env.TROVE_MAILER_PORT,
      username: env.TROVE_MAILER_USERNAME,
      password: env.TROVE_MAILER_PASSWORD,
      from: env.TROVE_MAILER_FROM.trim(),
      tls: env.TROVE_MAILER_TLS as 'starttls' | 'implicit' | 'none',
      tlsRejectUnauthorized: env.TROVE_MAILER_TLS_REJECT_UNAUTHORIZED,
    },
    changeFeed: { pingIntervalMs: env.TROVE_WS_PING_INTERVAL * 1000 },
    audit: { retentionDays: env.TROVE_AUDIT_RETENTION_DAYS },
    heapGrowthPercent: env.TROVE_HEAP_GROWTH_PERCENT,
    dataDir: path.resolve(env.TROVE_DATA_DIR),
    log: { level: env.TROVE_LOG_LEVEL, format: env.TROVE_LOG_FORMAT as 'json' | 'text' },
    options: {
      allowRegistration: env.TROVE_OPTIONS_ALLOW_REGISTRATION,
      allowLocalLogin: env.TROVE_OPTIONS_ALLOW_LOCAL_LOGIN,
      hostname: env.TROVE_OPTIONS_HOSTNAME,
      adminEmails: splitList(env.TROVE_ADMIN_EMAILS).map((email) => email.toLowerCase()),
      demo: env.TROVE_DEMO,
      demoPassword: env.TROVE_DEMO_PASSWORD,
    },
    auth: {
      tokenSecret: env.TROVE_AUTH_TOKEN_SECRET,
      apiKeyPepper: env.TROVE_AUTH_API_KEY_PEPPER,
      rateLimit: {
        enabled: env.TROVE_AUTH_RATE_LIMIT_ENABLED,
        windowMs: env.TROVE_AUTH_RATE_LIMIT_WINDOW * 1000,
        maxAttempts: env.TROVE_AUTH_RATE_LIMIT_MAX_ATTEMPTS,
        baseBackoffMs: env.TROVE_AUTH_RATE_LIMIT_BASE_BACKOFF * 1000,
        maxBackoffMs: env.TROVE_AUTH_RATE_LIMIT_MAX_BACKOFF * 1000,
      },
      credentialCacheSize: env.TROVE_AUTH_CREDENTIAL_CACHE_SIZE,
    },
    build: {
      version: packageVersion(),
      commit: env.TROVE_BUILD_COMMIT,
      buildTime: env.TROVE_BUILD_TIME,
    },
    oidc: {
      enabled: env.TROVE_OIDC_ENABLED,
      issuerUrl: env.TROVE_OIDC_ISSUER_URL,
      clientId: env.TROVE_OIDC_CLIENT_ID,
      clientSecret: env.TROVE_OIDC_CLIENT_SECRET,
      buttonText: env.TROVE_OIDC_BUTTON_TEXT,
      autoRedirect: env.TROVE_OIDC_AUTO_REDIRECT,
      scope: env.TROVE_OIDC_SCOPE,
      allowedGroups: splitList(env.TROVE_OIDC_ALLOWED_GROUPS),
      groupClaim: env.TROVE_OIDC_GROUP_CLAIM,
      emailClaim: env.TROVE_OIDC_EMAIL_CLAIM,
      nameClaim: env.TROVE_OIDC_NAME_CLAIM,
      emailVerifiedClaim: env.TROVE_OIDC_EMAIL_VERIFIED_CLAIM,
      verifyEmail: env.TROVE_OIDC_VERIFY_EMAIL,
      linkByEmail: env.TROVE_OIDC_LINK_BY_EMAIL,
      sharedGroup: env.TROVE_OIDC_SHARED_GROUP.trim(),
      roleMapping: Object.fromEntries(
        roleMappingEntries(env.TROVE_OIDC_ROLE_MAPPING)
          .filter((entry) => entry.troveGroup === null && entry.role !== 'admin')
          .map((entry) => [entry.group, entry.role as 'owner' | 'user' | 'viewer']),
      ),
      adminGroups: roleMappingEntries(env.TROVE_OIDC_ROLE_MAPPING)
        .filter((entry) => entry.troveGroup === null && entry.role === 'admin')
        .map((entry) => entry.group),
      groupGrants: roleMappingEntries(env.TROVE_OIDC_ROLE_MAPPING).flatMap((entry) =>
        entry.troveGroup === null
          ? []
          : [
              {
                providerGroup: entry.group,
                troveGroup: entry.troveGroup,
                role: entry.role as ProviderGroupGrant['role'],
              },
            ],
      ),
      stateExpiryMs: env.TROVE_OIDC_STATE_EXPIRY * 1000,
      requestTimeoutMs: env.TROVE_OIDC_REQUEST_TIMEOUT * 1000,
      logoutRedirect: env.TROVE_OIDC_LOGOUT_REDIRECT.trim(),
    },
    scim: { token: env.TROVE_SCIM_TOKEN },
    storage: {
      driver: env.TROVE_STORAGE_DRIVER as 'local' | 's3',
      s3: {
        endpoint: env.TROVE_STORAGE_S3_ENDPOINT,
        bucket: env.TROVE_STORAGE_S3_BUCKET,
        region: env.TROVE_STORAGE_S3_REGION,
        accessKeyId: env.TROVE_STORAGE_S3_ACCESS_KEY_ID,
        secretAccessKey: env.TROVE_STORAGE_S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.TROVE_STORAGE_S3_FORCE_PATH_STYLE,
        prefix: env.TROVE_STORAGE_S3_PREFIX,
      },
    },
    thumbnails: {
      enabled: env.TROVE_THUMBNAIL_ENABLED,
      width: env.TROVE_THUMBNAIL_WIDTH,
      height: env.TROVE_THUMBNAIL_HEIGHT,
    },
    reminders: {
      hour: env.TROVE_REMINDERS_HOUR,
      timeZone: env.TROVE_REMINDERS_TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone,
      warrantyDays: env.TROVE_REMINDERS_WARRANTY_DAYS,
      expiryDays: env.TROVE_REMINDERS_EXPIRY_DAYS,
    },
    barcode: {
      upcitemdbUrl: env.TROVE_BARCODE_UPCITEMDB_URL.replace(/\/+$/, ''),
      upcitemdbKey: env.TROVE_BARCODE_UPCITEMDB_KEY,
      openFoodFactsUrl: env.TROVE_BARCODE_OPENFOODFACTS_URL.replace(/\/+$/, ''),
      timeoutMs: env.TROVE_BARCODE_TIMEOUT * 1000,
      cacheTtlMs: env.TROVE_BARCODE_CACHE_TTL * 1000,
    },
    outboundAllowNets: env.TROVE_OUTBOUND_ALLOW_NETS.split(';')
      .map((net) => net.trim())
      .filter((net) => net !== ''),
    labelMaker: {
      printCommand: env.TROVE_LABEL_MAKER_PRINT_COMMAND,
      width: env.TROVE_LABEL_MAKER_WIDTH,
      height: env.TROVE_LABEL_MAKER_HEIGHT,
      padding: env.TROVE_LABEL_MAKER_PADDING,
      margin: env.TROVE_LABEL_MAKER_MARGIN,
      fontSize: env.TROVE_LABEL_MAKER_FONT_SIZE,
      additionalInformation: env.TROVE_LABEL_MAKER_ADDITIONAL_INFORMATION,
    },
    notifiers: {
      encryptionKey: env.TROVE_NOTIFIER_ENCRYPTION_KEY,
      retryDelaySeconds: env.TROVE_NOTIFIER_RETRY_DELAY,
      retryLimit: env.TROVE_NOTIFIER_RETRY_LIMIT,
      timeoutMs: env.TROVE_NOTIFIER_TIMEOUT * 1000,
      testRateLimit: env.TROVE_NOTIFIER_TEST_RATE_LIMIT,
    },
    telemetry: {
      enabled: env.TROVE_OTEL_ENABLED,
      metrics:
        env.TROVE_METRICS_PORT === undefined
          ? undefined
          : { port: env.TROVE_METRICS_PORT, host: env.TROVE_METRICS_HOST },
      serviceName: env.OTEL_SERVICE_NAME,
      serviceNameSet: (raw.OTEL_SERVICE_NAME ?? '').trim() !== '',
      serviceVersion: packageVersion(),
      resourceAttributes: resourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES),
      otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, ''),
      otlpProtocols: {
        traces: (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
          env.OTEL_EXPORTER_OTLP_PROTOCOL) as OtlpProtocol,
        metrics: (env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ||
          env.OTEL_EXPORTER_OTLP_PROTOCOL) as OtlpProtocol,
        logs: (env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL ||
          env.OTEL_EXPORTER_OTLP_PROTOCOL) as OtlpProtocol,
      },
      sampler: env.OTEL_TRACES_SAMPLER,
      samplerRatio: Number(env.OTEL_TRACES_SAMPLER_ARG),
      spanExportDelayMs: env.OTEL_BSP_SCHEDULE_DELAY,
      metricExportIntervalMs: env.OTEL_METRIC_EXPORT_INTERVAL,
      exportLogs: env.OTEL_LOGS_EXPORTER === 'otlp',
    },
  };
}

/** Either a passphrase or an age identity encrypts instance backups, or neither. */
export type BackupEncryptionSettings = { passphrase: string } | { ageKey: string };

function backupEncryption(passphrase: string, ageKey: string): BackupEncryptionSettings | null {
  if (passphrase && ageKey) {
    throw new ConfigurationError([
      'TROVE_BACKUP_PASSPHRASE and TROVE_BACKUP_AGE_KEY are both set: set one (values hidden)',
    ]);
  }
  if (passphrase) return { passphrase };
  if (ageKey) return { ageKey };
  return null;
}

/** The scheduled instance backup's cron expression: `auto` is nightly for the embedded database. */
function backupSchedule(setting: string, external: boolean): string {
  if (setting === 'off') return '';
  if (setting === 'auto') return external ? '' : '30 3 * * *';
  return setting;
}
