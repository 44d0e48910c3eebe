import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsTimeZone,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
  validateSync,
} from 'class-validator';

/** Reads "true"/"false"/"1"/"0" (any case) as booleans; anything else stays as given and fails @IsBoolean. */
const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return value;
};

/** Reads an integer written in decimal; anything else stays a string and fails @IsInt. */
const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

const toTrimmed = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim() : value;

/** The encodings of OTLP exports. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;

/** One entry of TROVE_OIDC_ROLE_MAPPING: `<group>=<role>` or `<group>=<Trove group>:<role>`. */
const ROLE_MAPPING_ENTRY = String.raw`\s*[^=,]+=\s*(?:[^=,]+:\s*(?:owner|user|viewer)|owner|user|viewer|admin)\s*`;

/**
 * Every environment variable Trove reads, declared once with its default.
 * `.env.example` lists the same variables in the same order.
 */
export class EnvironmentVariables {
  // --- Web server -------------------------------------------------------------------------

  /** TCP port the HTTP server listens on. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  TROVE_WEB_PORT = 7745;

  /** Address to bind; empty means every interface. */
  @IsString()
  TROVE_WEB_HOST = '';

  /**
   * A built single-page app (Homebox's web UI: `npm run web-ui` writes one to ./web-ui) served at
   * `/`; empty serves Trove's own sign-in page there.
   */
  @IsString()
  TROVE_WEB_UI_DIR = '';

  /**
   * Adds a link to Trove's console (`/console`) to the web UI's entry page as it is served (the
   * files on disk stay as they are); `false` serves the entry page unchanged.
   */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_WEB_UI_CONSOLE_LINK = true;

  /** Largest accepted upload in megabytes; JSON bodies are capped at 1 MB. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(10240)
  TROVE_WEB_MAX_UPLOAD_SIZE = 10;

  /**
   * Seconds a stopping server keeps accepting and answering (each answer with
   * `Connection: close`) while `/api/v1/health/ready` answers 503, so that load balancers stop
   * sending before it stops listening; idle keep-alive connections stay open as long.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(300)
  TROVE_WEB_SHUTDOWN_DRAIN = 1;

  /**
   * Seconds to wait for in-flight requests once a stopping server has closed its listener, before
   * closing anyway.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(300)
  TROVE_WEB_SHUTDOWN_TIMEOUT = 8;

  // --- Storage and database ---------------------------------------------------------------

  /** Directory for the embedded database and local files. */
  @IsString()
  @MinLength(1)
  TROVE_DATA_DIR = './data';

  /** PostgreSQL connection URL; unset means Trove starts its embedded PostgreSQL. */
  @IsOptional()
  @Transform(toTrimmed)
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string = undefined;

  /** Port of the embedded PostgreSQL on 127.0.0.1; 0 picks a free one at each start. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  TROVE_DATABASE_EMBEDDED_PORT = 0;

  /** Connections in the database pool. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(200)
  TROVE_DATABASE_POOL_SIZE = 10;

  /**
   * Seconds a request waits for a free pooled connection before it is answered 503 with
   * `Retry-After` (every connection busy for that long means the database is overloaded).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(300)
  TROVE_DATABASE_POOL_WAIT = 10;

  // --- Jobs -------------------------------------------------------------------------------

  /**
   * Whether this instance runs queued jobs and schedules (thumbnails, reminders, deliveries).
   * Set false on API-only instances; at least one instance on the database must run them.
   */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_WORKERS_ENABLED = true;

  /** Seconds between an idle worker's looks for new jobs. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(60)
  TROVE_JOBS_POLL_INTERVAL = 2;

  /** Largest collection backup zip accepted for import, in megabytes. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(1048576)
  TROVE_BACKUP_MAX_IMPORT_SIZE = 4096;

  /**
   * Seconds a backup export or import may run before the queue counts it as lost and runs it
   * again (from the start, on any instance): after a crash, the time until another instance
   * takes it over.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(5)
  @Max(86400)
  TROVE_BACKUP_JOB_EXPIRY = 1800;

  /**
   * Directory of instance backups (`npm run backup`); empty means `<TROVE_DATA_DIR>/backups`,
   * which lies on the same disk as the data it backs up: copy the backups off the machine.
   */
  @IsString()
  TROVE_BACKUP_DIR = '';

  /**
   * Cron expression (UTC) of the scheduled instance backup, run once across instances: `auto`
   * means nightly at 03:30 with the embedded database and never with DATABASE_URL (whose
   * operators usually back PostgreSQL up themselves); `off` never.
   */
  @IsString()
  @Matches(/^(auto|off|(\S+\s+){4}\S+)$/, {
    message: 'must be auto, off or a cron expression of five fields',
  })
  TROVE_BACKUP_SCHEDULE = 'auto';

  /** Instance backups kept: the newest of each of this many recent days. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(3650)
  TROVE_BACKUP_KEEP_DAILY = 7;

  /** Instance backups kept: the newest of each of this many recent ISO weeks. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(520)
  TROVE_BACKUP_KEEP_WEEKLY = 4;

  /** Instance backups kept: the newest of each of this many recent months. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(1200)
  TROVE_BACKUP_KEEP_MONTHLY = 6;

  /**
   * Keep a copy of each instance backup in TROVE_BACKUP_DIR. `false` keeps them only in the S3
   * bucket (TROVE_BACKUP_S3_BUCKET, then required); the directory still holds a backup while it
   * is written and checked.
   */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_BACKUP_LOCAL_COPY = true;

  /**
   * S3 bucket that receives a copy of every instance backup (off the machine); empty for none.
   * The other TROVE_BACKUP_S3_ settings fall back to the TROVE_STORAGE_S3_ ones.
   */
  @ValidateIf((env: EnvironmentVariables) => !env.TROVE_BACKUP_LOCAL_COPY)
  @IsString()
  @MinLength(1, { message: 'is required when TROVE_BACKUP_LOCAL_COPY is false' })
  TROVE_BACKUP_S3_BUCKET = '';

  /** Key prefix of instance backups inside TROVE_BACKUP_S3_BUCKET. */
  @IsString()
  TROVE_BACKUP_S3_PREFIX = 'trove-backups';

  /** S3 endpoint of the backup bucket; empty: TROVE_STORAGE_S3_ENDPOINT (or AWS). */
  @IsString()
  TROVE_BACKUP_S3_ENDPOINT = '';

  /** S3 region of the backup bucket; empty: TROVE_STORAGE_S3_REGION. */
  @IsString()
  TROVE_BACKUP_S3_REGION = '';

  /** Access key id for the backup bucket; empty: TROVE_STORAGE_S3_ACCESS_KEY_ID. */
  @IsString()
  TROVE_BACKUP_S3_ACCESS_KEY_ID = '';

  /** Secret access key for the backup bucket; empty: TROVE_STORAGE_S3_SECRET_ACCESS_KEY. */
  @IsString()
  TROVE_BACKUP_S3_SECRET_ACCESS_KEY = '';

  /** Address the backup bucket by path (most self-hosted S3 servers need this). */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_BACKUP_S3_FORCE_PATH_STYLE = true;

  /**
   * Encrypt instance backups with this passphrase (age, scrypt); restoring and verifying them
   * need it. At most one of this and TROVE_BACKUP_AGE_KEY.
   */
  @IsString()
  TROVE_BACKUP_PASSPHRASE = '';

  /**
   * Encrypt instance backups to this age identity (`AGE-SECRET-KEY-1...`, made by `age-keygen`);
   * restoring and verifying them need it. At most one of this and TROVE_BACKUP_PASSPHRASE.
   */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_BACKUP_AGE_KEY !== '')
  @Matches(/^AGE-SECRET-KEY-1[0-9A-Z]{58}$/, {
    message: 'must be an age identity (AGE-SECRET-KEY-1 and 58 more characters)',
  })
  TROVE_BACKUP_AGE_KEY = '';

  // --- Mail -------------------------------------------------------------------------------

  /** SMTP server that sends Trove's mail (password reset links); empty disables mail. */
  @IsString()
  TROVE_MAILER_HOST = '';

  /** Port of the SMTP server (587 for submission with STARTTLS, 465 for implicit TLS). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(65535)
  TROVE_MAILER_PORT = 587;

  /** User name for SMTP authentication; empty sends without authenticating. */
  @IsString()
  TROVE_MAILER_USERNAME = '';

  /** Password for SMTP authentication. */
  @IsString()
  TROVE_MAILER_PASSWORD = '';

  /** Sender of Trove's mail, e.g. `Trove <trove@example.com>`; empty disables mail. */
  @IsString()
  TROVE_MAILER_FROM = '';

  /**
   * How the connection is encrypted: `starttls` (upgrade a plain connection, refusing to send
   * without TLS), `implicit` (TLS from the first byte, usually port 465) or `none` (plain text).
   */
  @IsIn(['starttls', 'implicit', 'none'])
  TROVE_MAILER_TLS = 'starttls';

  /** Refuse an SMTP server whose TLS certificate does not verify. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_MAILER_TLS_REJECT_UNAUTHORIZED = true;

  // --- Change feed ------------------------------------------------------------------------

  /**
   * Seconds between the change feed's `{"event":"ping"}` frames; each ping also checks that every
   * socket's credential is still valid and closes those that are not.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(300)
  TROVE_WS_PING_INTERVAL = 10;

  // --- Change history ---------------------------------------------------------------------

  /** Days an entity's change history is kept; older changes are purged once a day. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(36500)
  TROVE_AUDIT_RETENTION_DAYS = 365;

  // --- Memory -----------------------------------------------------------------------------

  /**
   * How far the JavaScript heap may grow past what is live before it is collected, in percent;
   * 0 leaves it to V8, which lets it grow to four times the live data under load.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(300)
  TROVE_HEAP_GROWTH_PERCENT = 50;

  // --- Logging ----------------------------------------------------------------------------

  /** Lowest level written to the log. */
  @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
  TROVE_LOG_LEVEL = 'info';

  /** `json` for one JSON object a line, `text` for human-readable lines. */
  @IsIn(['json', 'text'])
  TROVE_LOG_FORMAT = 'json';

  // --- Options ----------------------------------------------------------------------------

  /** Lets anyone register without an invitation. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_OPTIONS_ALLOW_REGISTRATION = true;

  /** Allows local (e-mail and password) login and registration. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_OPTIONS_ALLOW_LOCAL_LOGIN = true;

  /** Public base URL or host name, used for redirects and links; empty means the request's host. */
  @IsString()
  TROVE_OPTIONS_HOSTNAME = '';

  /**
   * E-mail addresses of the instance administrators (comma-separated): in the console they see
   * every user and group and can disable and enable accounts.
   */
  @IsString()
  TROVE_ADMIN_EMAILS = '';

  /** Honour X-Forwarded-For and X-Forwarded-Proto from a reverse proxy. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_OPTIONS_TRUST_PROXY = false;

  /** Demo mode: reported by the status endpoint; start-up seeds the account demo@example.com with sample items, and account and wipe operations answer 403. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_DEMO = false;

  /** Password of the demo account demo@example.com, set when demo mode first seeds it (any length). */
  @IsString()
  TROVE_DEMO_PASSWORD = 'demodemo';

  // --- Authentication ---------------------------------------------------------------------

  /** Key that signs session tokens (at least 32 characters); empty means one generated and kept in the database. */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_AUTH_TOKEN_SECRET !== '')
  @IsString()
  @MinLength(32)
  TROVE_AUTH_TOKEN_SECRET = '';

  /** Key of the API key hashes (at least 32 characters); empty means one generated and kept in the database. */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_AUTH_API_KEY_PEPPER !== '')
  @IsString()
  @MinLength(32)
  TROVE_AUTH_API_KEY_PEPPER = '';

  /** Throttles failed sign-ins per account and per client address. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_AUTH_RATE_LIMIT_ENABLED = true;

  /** Seconds over which failed sign-ins are counted. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(86400)
  TROVE_AUTH_RATE_LIMIT_WINDOW = 60;

  /** Failed sign-ins of one account within the window before it is locked (an address gets four times as many). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(1000)
  TROVE_AUTH_RATE_LIMIT_MAX_ATTEMPTS = 5;

  /** Seconds of the first lock; each further failure doubles it. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(86400)
  TROVE_AUTH_RATE_LIMIT_BASE_BACKOFF = 10;

  /** Longest lock in seconds. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(86400)
  TROVE_AUTH_RATE_LIMIT_MAX_BACKOFF = 300;

  /** Verified credentials each instance caches, so a request needs no credential query; 0 turns the cache off. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(1000000)
  TROVE_AUTH_CREDENTIAL_CACHE_SIZE = 10000;

  // --- Attachments ------------------------------------------------------------------------

  /** Where attachment files live: `local` (under TROVE_DATA_DIR) or `s3` (an S3-compatible store). */
  @IsIn(['local', 's3'])
  TROVE_STORAGE_DRIVER = 'local';

  /** S3 endpoint URL, e.g. http://minio:9000; empty means AWS. */
  @IsString()
  TROVE_STORAGE_S3_ENDPOINT = '';

  /** S3 bucket; required with the s3 driver. */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_STORAGE_DRIVER === 's3')
  @IsString()
  @MinLength(1)
  TROVE_STORAGE_S3_BUCKET = '';

  /** S3 region. */
  @IsString()
  TROVE_STORAGE_S3_REGION = 'us-east-1';

  /** S3 access key id; empty uses the SDK's default credential chain. */
  @IsString()
  TROVE_STORAGE_S3_ACCESS_KEY_ID = '';

  /** S3 secret access key. */
  @IsString()
  TROVE_STORAGE_S3_SECRET_ACCESS_KEY = '';

  /** Address buckets by path (most self-hosted S3 servers need this). */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_STORAGE_S3_FORCE_PATH_STYLE = true;

  /** Key prefix inside the bucket. */
  @IsString()
  TROVE_STORAGE_S3_PREFIX = '';

  /** Make WebP thumbnails of photos. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_THUMBNAIL_ENABLED = true;

  /** Largest thumbnail width in pixels. */
  @Transform(toInteger)
  @IsInt()
  @Min(16)
  @Max(4096)
  TROVE_THUMBNAIL_WIDTH = 500;

  /** Largest thumbnail height in pixels. */
  @Transform(toInteger)
  @IsInt()
  @Min(16)
  @Max(4096)
  TROVE_THUMBNAIL_HEIGHT = 500;

  // --- Product barcode search --------------------------------------------------------------

  /** Base URL of a UPCitemdb-style lookup (`<url>/lookup?upc=`); empty disables it. */
  @IsString()
  TROVE_BARCODE_UPCITEMDB_URL = 'https://api.upcitemdb.com/prod/trial';

  /** Key for the UPCitemdb-style provider, sent as the `user_key` header when set. */
  @IsString()
  TROVE_BARCODE_UPCITEMDB_KEY = '';

  /** Base URL of an Open Food Facts-style lookup (`<url>/api/v2/product/<code>.json`); empty disables it. */
  @IsString()
  TROVE_BARCODE_OPENFOODFACTS_URL = 'https://world.openfoodfacts.org';

  /** Seconds before a provider request times out. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(120)
  TROVE_BARCODE_TIMEOUT = 10;

  /** Seconds a barcode search result is kept. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(604800)
  TROVE_BARCODE_CACHE_TTL = 3600;

  /** `;`-separated CIDRs that outbound requests may reach although private, loopback or link-local. */
  @IsString()
  TROVE_OUTBOUND_ALLOW_NETS = '';

  // --- Reminders ----------------------------------------------------------------------------

  /** Hour of the day (0-23, in TROVE_REMINDERS_TIME_ZONE) at which reminders go out. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(23)
  TROVE_REMINDERS_HOUR = 8;

  /** IANA time zone of the reminder hour and of "today"; empty: the server's own. */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_REMINDERS_TIME_ZONE !== '')
  @IsTimeZone()
  TROVE_REMINDERS_TIME_ZONE = '';

  /** Days ahead in which an ending warranty is announced (once per item); 0 announces none. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(3650)
  TROVE_REMINDERS_WARRANTY_DAYS = 30;

  /**
   * Days ahead in which an entity's stock expiry day is announced (once per item, expired ones
   * too); 0 announces none.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(3650)
  TROVE_REMINDERS_EXPIRY_DAYS = 14;

  // --- Build information (normally set by the image build) ---------------------------------

  /** Commit the running build was made from. */
  @IsString()
  TROVE_BUILD_COMMIT = '';

  /** Time the running build was made (RFC 3339). */
  @IsString()
  TROVE_BUILD_TIME = '';

  // --- OpenID Connect single sign-on ------------------------------------------------------

  /** Enables sign-in through an OpenID Connect provider. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_OIDC_ENABLED = false;

  /** Issuer URL of the provider (discovery document at /.well-known/openid-configuration). */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_OIDC_ENABLED)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  TROVE_OIDC_ISSUER_URL = '';

  /** Client id registered at the provider. */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_OIDC_ENABLED)
  @IsString()
  @MinLength(1)
  TROVE_OIDC_CLIENT_ID = '';

  /** Client secret registered at the provider. */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_OIDC_ENABLED)
  @IsString()
  @MinLength(1)
  TROVE_OIDC_CLIENT_SECRET = '';

  /** Text of the sign-in button in clients. */
  @IsString()
  TROVE_OIDC_BUTTON_TEXT = 'Sign in with OIDC';

  /** Tells clients to go straight to the provider. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_OIDC_AUTO_REDIRECT = false;

  /** Scopes requested from the provider. */
  @IsString()
  TROVE_OIDC_SCOPE = 'openid profile email';

  /** Comma-separated provider groups allowed to sign in; empty allows everyone. */
  @IsString()
  TROVE_OIDC_ALLOWED_GROUPS = '';

  /** Claim holding the user's groups at the provider. */
  @IsString()
  TROVE_OIDC_GROUP_CLAIM = 'groups';

  /** Claim holding the e-mail address. */
  @IsString()
  TROVE_OIDC_EMAIL_CLAIM = 'email';

  /** Claim holding the display name. */
  @IsString()
  TROVE_OIDC_NAME_CLAIM = 'name';

  /** Claim telling whether the e-mail address is verified. */
  @IsString()
  TROVE_OIDC_EMAIL_VERIFIED_CLAIM = 'email_verified';

  /** Refuse sign-in unless the provider says the e-mail address is verified. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_OIDC_VERIFY_EMAIL = false;

  /** Attach a provider identity to an existing local account with the same verified e-mail. */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_OIDC_LINK_BY_EMAIL = true;

  /** Name of a Trove group that every single sign-on user joins; empty gives each new user a group of their own. */
  @IsString()
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_SCIM_TOKEN !== '')
  @Matches(/\S/, { message: 'is required when TROVE_SCIM_TOKEN is set' })
  TROVE_OIDC_SHARED_GROUP = '';

  /**
   * Provider group to role in the shared group, e.g. `it-admins=owner,staff=user,auditors=viewer`;
   * `<group>=admin` makes the members of that provider group instance administrators;
   * `<group>=<Trove group>:<role>` makes them members of that Trove group (created on first use)
   * with that role, e.g. `warehouse-team=Warehouse:user`.
   */
  @Matches(new RegExp(`^$|^${ROLE_MAPPING_ENTRY}(,${ROLE_MAPPING_ENTRY})*$`), {
    message:
      'must be a comma-separated list of <group>=<owner|user|viewer|admin> or <group>=<Trove group>:<owner|user|viewer>',
  })
  TROVE_OIDC_ROLE_MAPPING = '';

  /** Seconds a sign-in at the provider may take (state, nonce and PKCE verifier live this long). */
  @Transform(toInteger)
  @IsInt()
  @Min(30)
  @Max(3600)
  TROVE_OIDC_STATE_EXPIRY = 600;

  /** Seconds before a request to the provider times out. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(300)
  TROVE_OIDC_REQUEST_TIMEOUT = 30;

  /**
   * Where the provider sends the browser after signing out there (a post-logout redirect URI
   * registered at the provider); set, signing out through `POST /api/v1/users/login/oidc/logout`
   * also ends the provider session (RP-initiated logout). Empty: Trove's sign-out stays local.
   */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_OIDC_LOGOUT_REDIRECT !== '')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  TROVE_OIDC_LOGOUT_REDIRECT = '';

  // --- SCIM provisioning ------------------------------------------------------------------

  /**
   * Bearer token of the identity provider's SCIM client (at least 32 characters); set, `/scim/v2`
   * provisions the users of TROVE_OIDC_SHARED_GROUP (which must then be set). Empty: SCIM is off.
   */
  @ValidateIf((env: EnvironmentVariables) => env.TROVE_SCIM_TOKEN !== '')
  @IsString()
  @MinLength(32)
  TROVE_SCIM_TOKEN = '';

  // --- Labels -----------------------------------------------------------------------------

  /** Command that prints a label; `{{.FileName}}` is replaced by the PNG's path. Empty disables printing. */
  @IsString()
  TROVE_LABEL_MAKER_PRINT_COMMAND = '';

  /** Label width in pixels. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(4000)
  TROVE_LABEL_MAKER_WIDTH = 526;

  /** Label height in pixels. */
  @Transform(toInteger)
  @IsInt()
  @Min(50)
  @Max(4000)
  TROVE_LABEL_MAKER_HEIGHT = 200;

  /** Space between the label's parts in pixels. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(500)
  TROVE_LABEL_MAKER_PADDING = 32;

  /** Margin around the label in pixels. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(500)
  TROVE_LABEL_MAKER_MARGIN = 32;

  /** Title font size in pixels. */
  @Transform(toInteger)
  @IsInt()
  @Min(6)
  @Max(300)
  TROVE_LABEL_MAKER_FONT_SIZE = 32;

  /** An extra line printed on every label. */
  @IsString()
  TROVE_LABEL_MAKER_ADDITIONAL_INFORMATION = '';

  // --- Notifiers --------------------------------------------------------------------------

  /**
   * Secret the notifier URLs are encrypted with at rest (AES-256-GCM, key derived from it).
   * Empty: a key generated once and kept in the database. Changing it makes stored URLs unreadable.
   */
  @IsString()
  TROVE_NOTIFIER_ENCRYPTION_KEY = '';

  /** Seconds before a failed delivery is first retried; doubled for each later retry. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(86400)
  TROVE_NOTIFIER_RETRY_DELAY = 30;

  /** Retries of a failed delivery after its first attempt. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(50)
  TROVE_NOTIFIER_RETRY_LIMIT = 5;

  /** Seconds one delivery may take (an HTTP request, or an e-mail's whole SMTP exchange). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(300)
  TROVE_NOTIFIER_TIMEOUT = 10;

  /** Test messages (`POST /notifiers/test`) one user, or one client address, may send per minute. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(10000)
  TROVE_NOTIFIER_TEST_RATE_LIMIT = 10;

  // --- Telemetry (OpenTelemetry) ---------------------------------------------------------

  /**
   * Traces, metrics and logs with OpenTelemetry (see docs/observability.md). Off (and with
   * TROVE_METRICS_PORT unset), no OpenTelemetry code is loaded at all.
   */
  @Transform(toBoolean)
  @IsBoolean()
  TROVE_OTEL_ENABLED = false;

  /**
   * Port of a separate listener answering `GET /metrics` in Prometheus text format; set, metrics
   * are collected (and the OpenTelemetry SDK loaded) even with TROVE_OTEL_ENABLED false. Unset:
   * no listener.
   */
  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(65535)
  TROVE_METRICS_PORT?: number = undefined;

  /** Address the metrics listener binds. */
  @IsString()
  @MinLength(1)
  TROVE_METRICS_HOST = '127.0.0.1';

  /** Name of the service in every span, metric and log record. */
  @IsString()
  @MinLength(1)
  OTEL_SERVICE_NAME = 'trove';

  /**
   * More attributes of the resource every span, metric and log record (and Prometheus's
   * `target_info`) carries, as `key=value,key=value` with values percent-encoded, e.g.
   * `deployment.environment.name=production,service.instance.id=trove-a`. `service.name` here gives
   * way to OTEL_SERVICE_NAME when that is set; without `service.instance.id` each process picks a
   * random one.
   */
  @Matches(/^$|^\s*[^=,\s]+\s*=[^,]*(,\s*[^=,\s]+\s*=[^,]*)*$/, {
    message: 'must be a comma-separated list of key=value',
  })
  OTEL_RESOURCE_ATTRIBUTES = '';

  /**
   * OTLP collector base URL (`/v1/traces`, `/v1/metrics`, `/v1/logs` are appended for HTTP);
   * empty: nothing is pushed (spans are still made, so logs carry trace ids, and /metrics works).
   * The per-signal `OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT` variables are honoured too.
   */
  @ValidateIf((env: EnvironmentVariables) => env.OTEL_EXPORTER_OTLP_ENDPOINT !== '')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  OTEL_EXPORTER_OTLP_ENDPOINT = '';

  /** OTLP encoding: `http/protobuf`, `http/json` or `grpc`. */
  @IsIn(OTLP_PROTOCOLS)
  OTEL_EXPORTER_OTLP_PROTOCOL = 'http/protobuf';

  /** OTLP encoding of the spans alone; empty: OTEL_EXPORTER_OTLP_PROTOCOL. */
  @ValidateIf((env: EnvironmentVariables) => env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL !== '')
  @IsIn(OTLP_PROTOCOLS)
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = '';

  /** OTLP encoding of the metrics alone; empty: OTEL_EXPORTER_OTLP_PROTOCOL. */
  @ValidateIf((env: EnvironmentVariables) => env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL !== '')
  @IsIn(OTLP_PROTOCOLS)
  OTEL_EXPORTER_OTLP_METRICS_PROTOCOL = '';

  /** OTLP encoding of the log records alone; empty: OTEL_EXPORTER_OTLP_PROTOCOL. */
  @ValidateIf((env: EnvironmentVariables) => env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL !== '')
  @IsIn(OTLP_PROTOCOLS)
  OTEL_EXPORTER_OTLP_LOGS_PROTOCOL = '';

  /** Headers sent with every OTLP export, `key1=value1,key2=value2` (never logged). */
  @IsString()
  OTEL_EXPORTER_OTLP_HEADERS = '';

  /**
   * Which requests are traced: `parentbased_traceidratio` (a sampled incoming `traceparent` is
   * followed, otherwise OTEL_TRACES_SAMPLER_ARG of new traces), `traceidratio`, `always_on`,
   * `always_off`, `parentbased_always_on` or `parentbased_always_off`.
   */
  @IsIn([
    'always_on',
    'always_off',
    'traceidratio',
    'parentbased_always_on',
    'parentbased_always_off',
    'parentbased_traceidratio',
  ])
  OTEL_TRACES_SAMPLER = 'parentbased_traceidratio';

  /** Share of new traces sampled by the ratio samplers, from 0 to 1. */
  @Matches(/^(0(\.\d+)?|1(\.0+)?)$/, { message: 'must be a number from 0 to 1' })
  OTEL_TRACES_SAMPLER_ARG = '1';

  /** Milliseconds between two exports of finished spans (and of log records). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(3600000)
  OTEL_BSP_SCHEDULE_DELAY = 5000;

  /** Milliseconds between two OTLP pushes of the metrics. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(3600000)
  OTEL_METRIC_EXPORT_INTERVAL = 60000;

  /** Log records exported over OTLP (`otlp`, needs an endpoint) or not (`none`). */
  @IsIn(['otlp', 'none'])
  OTEL_LOGS_EXPORTER = 'none';
}

/** Variables where an empty value means "none" (a provider switched off), not the default. */
export const EMPTY_IS_A_VALUE: ReadonlySet<string> = new Set([
  'TROVE_BARCODE_UPCITEMDB_URL',
  'TROVE_BARCODE_OPENFOODFACTS_URL',
]);

/** Names whose values are never printed, even in an error message. */
export const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  'DATABASE_URL',
  'TROVE_AUTH_TOKEN_SECRET',
  'TROVE_AUTH_API_KEY_PEPPER',
  'TROVE_OIDC_CLIENT_SECRET',
  'TROVE_STORAGE_S3_SECRET_ACCESS_KEY',
  'TROVE_BACKUP_S3_SECRET_ACCESS_KEY',
  'TROVE_BACKUP_PASSPHRASE',
  'TROVE_BACKUP_AGE_KEY',
  'TROVE_BARCODE_UPCITEMDB_KEY',
  'TROVE_MAILER_PASSWORD',
  'TROVE_NOTIFIER_ENCRYPTION_KEY',
  'TROVE_SCIM_TOKEN',
  'OTEL_EXPORTER_OTLP_HEADERS',
]);

const KIND_CONSTRAINTS = new Set(['isInt', 'isBoolean', 'isIn', 'matches', 'isUrl', 'isString']);

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigurationError';
  }
}

/**
 * Validates the raw environment. Unknown variables are ignored; empty strings count as unset,
 * so `TROVE_WEB_PORT=` falls back to the default, except for EMPTY_IS_A_VALUE. Throws a ConfigurationError naming every bad
 * key, never echoing a secret's value.
 */
export function validateEnvironment(raw: NodeJS.ProcessEnv): EnvironmentVariables {
  const defaults = new EnvironmentVariables();
  const given: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const value = raw[key];
    if (value !== undefined && (value !== '' || EMPTY_IS_A_VALUE.has(key))) given[key] = value;
  }
  const env = plainToInstance(EnvironmentVariables, given, { exposeDefaultValues: true });
  const errors = validateSync(env, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const problems = errors.map((error) => {
      const constraints = Object.entries(error.constraints ?? {});
      // A value of the wrong kind fails range checks too; the kind is what to report.
      const kind = constraints.filter(([name]) => KIND_CONSTRAINTS.has(name));
      const reasons = (kind.length > 0 ? kind : constraints)
        .map(([, message]) => message.replace(`${error.property} `, ''))
        .join('; ');
      const shown = SECRET_VARIABLES.has(error.property)
        ? 'value hidden'
        : `got "${String(error.value)}"`;
      return `${error.property}: ${reasons} (${shown})`;
    });
    throw new ConfigurationError(problems);
  }
  return env;
}
