import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** docs/product.md#design-5: every setting, parsed once at boot. Names are fixed. */
const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().url().optional(),
    JWT_SECRET: z.string().min(16).optional(),
    ADMIN_EMAIL: z.string().email().optional(),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Olympe <no-reply@localhost>'),
    CONTACT_EMAIL: z.string().email().optional(),
    PUBLIC_URL: z.string().url().optional(),
    MAX_PDF_MB: z.coerce.number().positive().default(30),
    /** A chapter's scan sent by resumable upload (decision 91): a 400-page copier scan. */
    MAX_SCAN_MB: z.coerce.number().positive().default(200),
    /**
     * Decision 133: what one account may keep in stored files (every PDF it owns, and uploads under way) and how many
     * uploads it may start per minute; a pupil's (FILES_QUOTA_MB, UPLOADS_PER_MINUTE) and school staff's, who send scans.
     */
    FILES_QUOTA_MB: z.coerce.number().positive().default(500),
    STAFF_FILES_QUOTA_MB: z.coerce.number().positive().default(20_000),
    UPLOADS_PER_MINUTE: z.coerce.number().int().positive().default(10),
    STAFF_UPLOADS_PER_MINUTE: z.coerce.number().int().positive().default(60),
    REDIS_URL: z.string().optional(),
    TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
    /**
     * The address search of /map (decision 87): a Nominatim-compatible `/search` URL or an
     * api-adresse.data.gouv.fr-compatible one; unset or empty: off, the page shows no address field.
     */
    GEOCODER_URL: z
      .string()
      .url({ error: 'une adresse http(s) de service de géocodage' })
      .regex(/^https?:\/\//i, 'une adresse http(s)')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Operations (docs/operations.md): where PDFs live, and who may scrape /api/metrics.
    FILE_STORE: z.enum(['disk', 'postgres', 's3']).default('disk'),
    S3_ENDPOINT: z.string().url().optional(),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_PREFIX: z.string().default('pdfs/'),
    METRICS_TOKEN: z.string().min(16).optional(),
    /** off: this instance runs no background jobs (tests that run the queue themselves, API-only instances). */
    JOBS_WORKER: z.enum(['on', 'off']).default('on'),
    /** Notification mails sent per second by one instance (throttle; 0: as fast as the server takes them). */
    MAIL_RATE_PER_SECOND: z.coerce.number().min(0).default(20),
    /** Mails in flight at once in one instance. */
    MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
    /**
     * Which peers may set X-Forwarded-For (decision 24): `loopback` (a reverse proxy on this host),
     * a comma-separated list of addresses, CIDR ranges or proxy-addr names (loopback, linklocal,
     * uniquelocal), `true` (every peer: only behind a proxy that overwrites the header) or `false`.
     * No hop count: Fastify 5.12 never trusts one.
     */
    /** The OpenAPI description at /api/docs; absent: the caller's default (loadConfig's `defaults`). */
    API_DOCS: z.enum(['on', 'off']).optional(),
    TRUST_PROXY: z
      .string()
      .regex(
        /^(true|false|[a-z0-9.:/, ]*[a-z.:/][a-z0-9.:/, ]*)$/i,
        'adresses ou plages CIDR séparées par des virgules, loopback, true ou false',
      )
      .default('loopback'),
  })
  .superRefine((e, ctx) => {
    if (e.FILE_STORE !== 's3') return;
    for (const key of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'obligatoire quand FILE_STORE=s3' });
    }
  });

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  jwtSecret: string;
  adminEmail?: string;
  smtpUrl?: string;
  mailFrom: string;
  contactEmail: string;
  publicUrl: string;
  maxPdfBytes: number;
  /** MAX_SCAN_MB: a chapter's scan sent through POST /uploads (decision 91). */
  maxScanBytes: number;
  /** Decision 133: the stored bytes an account may hold, and the uploads it may start per minute, pupils then staff. */
  filesQuotaBytes: number;
  staffFilesQuotaBytes: number;
  uploadsPerMinute: number;
  staffUploadsPerMinute: number;
  redisUrl?: string;
  tileUrl: string;
  /** GEOCODER_URL: the address search of /map; absent, off. */
  geocoderUrl?: string;
  logLevel: string;
  /** Serve the built web app from this folder when it exists. */
  webDist?: string;
  /** Where PDF bytes live (docs/operations.md); absent means disk. */
  fileStore?: 'disk' | 'postgres' | 's3';
  s3?: S3Config;
  metricsToken?: string;
  /** Run the background job queue in this instance (JOBS_WORKER, default on). */
  jobsWorker?: boolean;
  /** Notification mails: per-instance rate (per second, 0 = unthrottled) and parallel sends. */
  mailRate?: number;
  mailConcurrency?: number;
  /** Fastify's trustProxy: whose X-Forwarded-For becomes request.ip (rate limits, the IPs of the cheat analysis). */
  trustProxy?: boolean | string;
  /** Serve the OpenAPI description at /api/docs (API_DOCS). */
  apiDocs?: boolean;
}

/**
 * What a setting defaults to depends on who starts the server, not on NODE_ENV (STYLE): `npm start`
 * (main.ts) passes its own, the demo, the tests and the scripts take these.
 */
export interface ConfigDefaults {
  apiDocs: boolean;
}

export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  prefix: string;
}

/** Reads the environment, fails fast with a readable list of what is wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: ConfigDefaults = { apiDocs: true }): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Configuration invalide :\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET ?? readOrCreateSecret(dataDir),
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL ?? addressOf(e.MAIL_FROM),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    maxPdfBytes: Math.round(e.MAX_PDF_MB * 1024 * 1024),
    maxScanBytes: Math.round(e.MAX_SCAN_MB * 1024 * 1024),
    filesQuotaBytes: Math.round(e.FILES_QUOTA_MB * 1024 * 1024),
    staffFilesQuotaBytes: Math.round(e.STAFF_FILES_QUOTA_MB * 1024 * 1024),
    uploadsPerMinute: e.UPLOADS_PER_MINUTE,
    staffUploadsPerMinute: e.STAFF_UPLOADS_PER_MINUTE,
    redisUrl: e.REDIS_URL,
    tileUrl: e.TILE_URL,
    geocoderUrl: e.GEOCODER_URL,
    logLevel: e.LOG_LEVEL,
    // WEB_DIST lets parallel browser runs serve their own build; production uses web/dist.
    webDist: path.resolve(process.env.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    fileStore: e.FILE_STORE,
    s3:
      e.FILE_STORE === 's3'
        ? {
            endpoint: e.S3_ENDPOINT!.replace(/\/$/, ''),
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID!,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
            prefix: e.S3_PREFIX,
          }
        : undefined,
    metricsToken: e.METRICS_TOKEN,
    jobsWorker: e.JOBS_WORKER === 'on',
    mailRate: e.MAIL_RATE_PER_SECOND,
    mailConcurrency: e.MAIL_CONCURRENCY,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    apiDocs: e.API_DOCS ? e.API_DOCS === 'on' : defaults.apiDocs,
  };
}

/** `true`/`false`, or the list of trusted proxies as proxy-addr reads it. */
function parseTrustProxy(value: string): boolean | string {
  const v = value.trim();
  return v === 'true' || v === 'false' ? v === 'true' : v;
}

function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

/** docs/product.md#design-5: JWT_SECRET is generated once into DATA_DIR when absent, so tokens survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
