import fc from 'fast-check';

/** The parts of an OpenAPI 3 document the fuzzer reads. */
export interface SchemaObject {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  allOf?: SchemaObject[];
}

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: SchemaObject;
}

interface OperationObject {
  operationId?: string;
  parameters?: ParameterObject[];
  requestBody?: { content: Record<string, { schema?: SchemaObject }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

/** One operation of the document: method, path template and what it takes. */
export interface Operation {
  method: string;
  path: string;
  operationId: string;
  pathParameters: ParameterObject[];
  queryParameters: ParameterObject[];
  /** Request body schema by content type. */
  bodies: Record<string, SchemaObject>;
}

/** Every operation (path × method) of the document. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = operation.parameters ?? [];
      const bodies: Record<string, SchemaObject> = {};
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        bodies[type] = media.schema ?? {};
      }
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId ?? `${method} ${path}`,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path'),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query'),
        bodies,
      });
    }
  }
  return operations;
}

/** Ids of things that exist, by kind, so requests hit real rows as well as random ones. */
export interface KnownIds {
  entities: string[];
  locations: string[];
  tags: string[];
  entityTypes: string[];
  templates: string[];
  maintenance: string[];
  attachments: string[];
  invitations: string[];
  invitationTokens: string[];
  apiKeys: string[];
  users: string[];
  groups: string[];
  assetIds: string[];
}

/** A request the fuzzer sends; `body` is the raw text or form it sends. */
export interface FuzzRequest {
  method: string;
  url: string;
  contentType?: string;
  body?: string | FormData;
  /** Overrides the fuzzer's X-Tenant header (`''` leaves it out). */
  tenant?: string;
  /** What the request was made of, for the report of a failure. */
  description: string;
}

const LONG = 100_000;
/** Longest query string sent (percent-encoded). */
const MAX_QUERY_LENGTH = 12_000;

/** Text that has broken servers: NUL, direction marks, astral and lone surrogates, SQL, paths. */
const NASTY_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202Eevil',
  '\u200F\u200E',
  '\u{1F600}\u{1F4A9}',
  '\u{10FFFF}',
  '\uD800',
  '\uDFFF\uD800',
  '\uFEFF',
  "'; DROP TABLE users; --",
  '%00',
  '%',
  '../../../etc/passwd',
  '{{.FileName}}',
  '$(reboot)',
  '\r\n',
  'null',
  'true',
  'NaN',
  '1e309',
  '-1',
  '000-001',
  '#000-001',
  '0x7fffffff',
  '<script>alert(1)</script>',
  '\\',
  '"',
];

const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('x', 'é', '\u{1F600}', '\u0000', '\u202E'),
        fc.constantFrom(LONG, 256, 1001),
      )
      .map(([unit, count]) => unit.repeat(count)),
  },
);

const INVALID_DATES = [
  '2024-02-30',
  '2024-13-01',
  '0000-00-00',
  '2024-01-01T25:61:00Z',
  '9999-12-31T23:59:59Z',
  '10000-01-01',
  '-001000-01-01T00:00:00Z',
  '275760-09-13T00:00:00.001Z',
  '1900-01-01',
  '0001-01-01',
  'yesterday',
  '2024-1-1',
  '2024-01-01 12:00',
  '',
];

const dateString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INVALID_DATES),
  fc
    .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  fc
    .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10)),
);

const wildNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
  ),
);

/** A well-formed id that names nothing. */
const UNKNOWN_ID = '3f0e4b9a-8c2d-4e61-9a7b-5d1c2e3f4a5b';

const INVALID_UUIDS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '6f1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5',
  '{6f1c2d3e-4f5a-4b7c-8d9e-0f1a2b3c4d5e}',
  '6F1C2D3E4F5A4B7C8D9E0F1A2B3C4D5E',
  '6f1c2d3e-4f5a-4b7c-8d9e-0f1a2b3c4d5e\u0000',
];

/** Nested arrays `levels` deep, as JSON text. */
export const deepJson = (levels: number): string => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

/** A deeply nested value, built without recursion. */
const deepValue = (levels: number): unknown => {
  let value: unknown = 'x';
  for (let level = 0; level < levels; level += 1) value = level % 2 ? [value] : { a: value };
  return value;
};

/** Any JSON value, hostile on purpose. */
const wildValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: wildNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: dateString },
  { weight: 1, arbitrary: fc.constantFrom(...INVALID_UUIDS) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), nastyString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(20, 40, 2000).map(deepValue) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Resolves schemas (`$ref`, `allOf`) against the document. */
export class SchemaFuzzer {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly ids: () => KnownIds,
  ) {}

  private resolve(schema: SchemaObject): SchemaObject {
    let current = schema;
    for (let hops = 0; current.$ref && hops < 10; hops += 1) {
      const name = current.$ref.split('/').pop() ?? '';
      current = this.document.components?.schemas?.[name] ?? {};
    }
    if (current.allOf) {
      const merged: SchemaObject = { type: 'object', properties: {}, required: [] };
      for (const part of current.allOf.map((item) => this.resolve(item))) {
        Object.assign(merged.properties!, part.properties ?? {});
        merged.required!.push(...(part.required ?? []));
        if (part.type && part.type !== 'object') return part;
      }
      return merged;
    }
    return current;
  }

  /** A uuid that names something of the group (of the kind a name hints at), or a random one. */
  uuid(hint: string): fc.Arbitrary<string> {
    const ids = this.ids();
    const lower = hint.toLowerCase();
    const pools: string[][] = [];
    if (lower.includes('tag')) pools.push(ids.tags);
    if (lower.includes('type')) pools.push(ids.entityTypes);
    if (lower.includes('template')) pools.push(ids.templates);
    if (lower.includes('parent') || lower.includes('location')) pools.push(ids.locations);
    if (lower.includes('maintenance')) pools.push(ids.maintenance);
    if (lower.includes('attachment')) pools.push(ids.attachments);
    if (lower.includes('user')) pools.push(ids.users);
    if (lower.includes('group') || lower.includes('tenant')) pools.push(ids.groups);
    pools.push(ids.entities);
    const known = pools.flat();
    return fc.oneof(
      { weight: 4, arbitrary: known.length ? fc.constantFrom(...known) : fc.uuid() },
      { weight: 2, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.constant(UNKNOWN_ID) },
    );
  }

  /** A value that follows the schema (mostly), for the named property. */
  validish(schema: SchemaObject, name: string, depth = 0): fc.Arbitrary<unknown> {
    const resolved = this.resolve(schema);
    const choices = resolved.oneOf ?? resolved.anyOf;
    if (choices?.length) {
      return fc.oneof(...choices.map((choice) => this.validish(choice, name, depth + 1)));
    }
    if (resolved.enum?.length) return fc.constantFrom(...resolved.enum);
    const type = resolved.type ?? (resolved.properties ? 'object' : undefined);
    switch (type) {
      case 'string':
        if (resolved.format === 'uuid') return this.uuid(name);
        if (resolved.format === 'date-time' || resolved.format === 'date') return dateString;
        if (resolved.format === 'email' || name.toLowerCase().includes('email')) {
          return fc.oneof(
            { weight: 3, arbitrary: fc.emailAddress() },
            { weight: 1, arbitrary: nastyString },
          );
        }
        return fc.oneof(
          {
            weight: 4,
            arbitrary: fc.string({
              minLength: resolved.minLength ?? 0,
              maxLength: Math.min(resolved.maxLength ?? 40, 40),
            }),
          },
          {
            weight: 1,
            arbitrary: name.toLowerCase().includes('id') ? this.uuid(name) : nastyString,
          },
          { weight: 1, arbitrary: dateString },
        );
      case 'integer':
      case 'number':
        return fc.oneof(
          fc.integer({
            min: Math.max(resolved.minimum ?? -1000, -(2 ** 31)),
            max: Math.min(resolved.maximum ?? 1000, 2 ** 31 - 1),
          }),
          wildNumber,
        );
      case 'boolean':
        return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 1, 0));
      case 'array':
        if (depth > 4) return fc.constant([]);
        return fc.array(this.validish(resolved.items ?? {}, name, depth + 1), { maxLength: 4 });
      case 'object':
        if (depth > 4) return fc.constant({});
        return this.object(resolved, depth + 1);
      default:
        return wildValue;
    }
  }

  /** An object of the schema with its properties valid-ish or hostile, some missing, some extra. */
  object(schema: SchemaObject, depth = 0): fc.Arbitrary<Record<string, unknown>> {
    const resolved = this.resolve(schema);
    const properties = Object.entries(resolved.properties ?? {});
    const required = new Set(resolved.required ?? []);
    const entries = properties.map(([name, property]) =>
      fc
        .oneof(
          { weight: 6, arbitrary: this.validish(property, name, depth) },
          { weight: 2, arbitrary: wildValue },
          { weight: 1, arbitrary: fc.constant(null) },
          { weight: required.has(name) ? 1 : 3, arbitrary: fc.constant(MISSING) },
        )
        .map((value) => [name, value] as const),
    );
    return fc
      .tuple(
        fc.tuple(...entries),
        fc.option(
          fc.tuple(
            fc.constantFrom('id', 'groupId', 'role', 'isSuperuser', '__proto__', 'unknown\u0000'),
            wildValue,
          ),
          {
            freq: 4,
          },
        ),
      )
      .map(([pairs, extra]) => {
        const object: Record<string, unknown> = {};
        for (const [name, value] of pairs) if (value !== MISSING) object[name] = value;
        if (extra) Object.defineProperty(object, extra[0], { value: extra[1], enumerable: true });
        return object;
      });
  }

  /** A path parameter: an id that exists, a random UUID, or junk (already percent-encoded). */
  pathValue(operation: Operation, parameter: ParameterObject): fc.Arbitrary<string> {
    const ids = this.ids();
    const { path } = operation;
    const name = parameter.name;
    let known: string[];
    if (name === 'attachment_id') known = ids.attachments;
    else if (name === 'user_id') known = ids.users;
    else if (name === 'token') known = ids.invitationTokens;
    else if (name === 'assetId' || path.startsWith('/api/v1/assets/')) known = ids.assetIds;
    else if (path.startsWith('/api/v1/tags/')) known = ids.tags;
    else if (path.startsWith('/api/v1/entity-types/')) known = ids.entityTypes;
    else if (path.startsWith('/api/v1/templates/')) known = ids.templates;
    else if (path.startsWith('/api/v1/maintenance/')) known = ids.maintenance;
    else if (path.startsWith('/api/v1/groups/invitations/')) known = ids.invitations;
    else if (path.startsWith('/api/v1/users/self/api-keys/')) known = ids.apiKeys;
    else if (path.includes('/location/')) known = ids.locations;
    else known = ids.entities;
    // URL parsing resolves `.` and `..` segments (also as `%2e`) before the request leaves, so
    // they would name another route (`/groups/invitations/..` is `/groups`): never send them.
    const dotSegment = /^(?:\.|%2e){1,2}$/i;
    return fc
      .oneof(
        { weight: 5, arbitrary: known.length ? fc.constantFrom(...known) : fc.uuid() },
        { weight: 2, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constantFrom(...INVALID_UUIDS).map(encode) },
        { weight: 2, arbitrary: nastyString.filter((text) => text.length < 2000).map(encode) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('%', '%FF', '%ED%A0%80', '%C0%AE', '%2F', '.%2E%2F', '%5C'),
        },
        { weight: 1, arbitrary: wildNumber.map((value) => encode(String(value))) },
      )
      .map((segment) => (dotSegment.test(segment) ? `x${segment}` : segment));
  }

  /** The query string for an operation: documented parameters valid-ish or hostile, plus extras. */
  query(operation: Operation): fc.Arbitrary<string> {
    const parameters = operation.queryParameters.map((parameter) =>
      fc
        .oneof(
          {
            weight: 5,
            arbitrary: this.validish(parameter.schema ?? {}, parameter.name).map(asQueryValues),
          },
          {
            weight: 2,
            arbitrary: fc.array(
              nastyString.filter((text) => text.length < 4000),
              { minLength: 1, maxLength: 3 },
            ),
          },
          { weight: 1, arbitrary: fc.constant([''] as string[]) },
          { weight: parameter.required ? 1 : 3, arbitrary: fc.constant([] as string[]) },
        )
        .map((values) => values.map((value) => `${encode(parameter.name)}=${encode(value)}`)),
    );
    const extras = fc.oneof(
      { weight: 6, arbitrary: fc.constant([] as string[]) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ['tenant=not-a-uuid'],
          ['page[a]=1'],
          ['q[$gt]='],
          ['unknown=%00'],
          ['pageSize=-1&page=99999999999'],
        ),
      },
    );
    return fc.tuple(fc.tuple(...parameters), extras).map(([lists, extra]) => {
      // Node refuses request lines beyond its header limit (16 KiB) before the app sees them.
      const pairs: string[] = [];
      let length = 0;
      for (const pair of [...lists.flat(), ...extra]) {
        if (length + pair.length > MAX_QUERY_LENGTH) continue;
        pairs.push(pair);
        length += pair.length + 1;
      }
      return pairs.join('&');
    });
  }

  /** A body for the operation in one of its content types, or deliberately wrong. */
  body(
    operation: Operation,
  ): fc.Arbitrary<Pick<FuzzRequest, 'contentType' | 'body' | 'description'>> {
    const types = Object.keys(operation.bodies);
    const json = (value: unknown) => ({
      contentType: 'application/json',
      body: JSON.stringify(value) ?? 'null',
      description: 'JSON',
    });
    const schema = operation.bodies['application/json'] ?? operation.bodies[types[0]] ?? {};
    const options: Array<
      fc.WeightedArbitrary<Pick<FuzzRequest, 'contentType' | 'body' | 'description'>>
    > = [
      { weight: 1, arbitrary: wildValue.map(json) },
      { weight: types.length ? 1 : 8, arbitrary: fc.constant({ description: 'no body' }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          { contentType: 'application/json', body: '{"name": ', description: 'malformed JSON' },
          {
            contentType: 'application/json',
            body: '{"a":1}{"b":2}',
            description: 'two JSON values',
          },
          { contentType: 'application/json', body: "{'name': 'x'}", description: 'single quotes' },
          { contentType: 'application/json', body: '\uFEFF{}', description: 'byte order mark' },
          { contentType: 'application/json', body: '', description: 'empty JSON' },
          {
            contentType: 'application/json',
            body: `{"name": ${deepJson(2000)}}`,
            description: 'deep',
          },
          { contentType: 'application/json; charset=latin1', body: '{}', description: 'charset' },
          { contentType: 'text/plain', body: 'name=x', description: 'text' },
          { contentType: 'application/xml', body: '<a/>', description: 'xml' },
          {
            contentType: 'multipart/form-data; boundary=x',
            body: '--x\r\n',
            description: 'broken multipart',
          },
          {
            contentType: 'application/x-www-form-urlencoded',
            body: 'name=%00&a[b][c]=1&%=',
            description: 'form',
          },
        ),
      },
    ];
    if (types.length > 0) {
      options.push({ weight: 6, arbitrary: this.object(schema).map(json) });
    }
    if (operation.bodies['application/x-www-form-urlencoded']) {
      options.push({
        weight: 2,
        arbitrary: this.object(schema).map((object) => ({
          contentType: 'application/x-www-form-urlencoded',
          body: Object.entries(object)
            .map(
              ([key, value]) =>
                `${encode(key)}=${encode(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))}`,
            )
            .join('&'),
          description: 'form',
        })),
      });
    }
    if (operation.bodies['multipart/form-data']) {
      options.push({
        weight: 6,
        arbitrary: fc
          .tuple(
            this.object(schema),
            fc.oneof(
              fc.constant(undefined),
              fc.uint8Array({ maxLength: 64 }),
              fc.constantFrom(PNG_1PX, PDF_MINIMAL, new Uint8Array(0)),
            ),
            fc.constantFrom(
              'file.pdf',
              'a\u0000.png',
              '../../x',
              '\u202Egpj.exe',
              'x'.repeat(300),
              '',
            ),
          )
          .map(([object, file, fileName]) => {
            const form = new FormData();
            for (const [key, value] of Object.entries(object)) {
              if (key === 'file') continue;
              form.append(key, typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
            }
            if (file) form.append('file', new Blob([file]), fileName);
            return { body: form, description: 'multipart' };
          }),
      });
    }
    return fc.oneof(...options);
  }

  /** A whole request for the operation. */
  request(operation: Operation): fc.Arbitrary<FuzzRequest> {
    const pathParts = operation.pathParameters.map((parameter) =>
      this.pathValue(operation, parameter).map((value) => [parameter.name, value] as const),
    );
    const tenant = fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          'not-a-uuid',
          UNKNOWN_ID,
          '%00',
          '6f1c2d3e-4f5a-4b7c-8d9e-0f1a2b3c4d5e'.toUpperCase(),
        ),
      },
    );
    return fc
      .tuple(fc.tuple(...pathParts), this.query(operation), this.body(operation), tenant)
      .map(([parts, query, body, tenantHeader]) => {
        let path = operation.path;
        for (const [name, value] of parts) path = path.replace(`{${name}}`, value);
        const url = query ? `${path}?${query}` : path;
        const headerNote =
          tenantHeader === undefined ? '' : ` X-Tenant ${JSON.stringify(tenantHeader)}`;
        return {
          method: operation.method,
          url,
          ...body,
          tenant: tenantHeader,
          description:
            `${operation.method} ${url.slice(0, 300)} [${body.description}]${headerNote}` +
            (typeof body.body === 'string' ? ` ${body.body.slice(0, 600)}` : ''),
        };
      });
  }
}

const MISSING = Symbol('missing');

/** Query values as strings, as a client would render them (arrays repeat the parameter). */
function asQueryValues(value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? item : (JSON.stringify(item) ?? '')));
  if (typeof value === 'string') return [value];
  return [JSON.stringify(value) ?? ''];
}

/** Percent-encodes text as UTF-8 (lone surrogates become U+FFFD, as a client would send). */
export function encode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) && byte < 0x80
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** A 1×1 PNG. */
export const PNG_1PX = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** The smallest PDF a sniffer recognises. */
export const PDF_MINIMAL = new Uint8Array(
  Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
);

/** What is wrong with an error response, or undefined when it has the documented shape. */
export function errorShapeProblem(contentType: string | null, text: string): string | undefined {
  if (!contentType?.startsWith('application/json')) return `content type ${contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'body is not an object';
  const record = body as Record<string, unknown>;
  if (typeof record.error !== 'string') return 'no error string';
  for (const key of Object.keys(record)) {
    if (!['error', 'fields', 'requestId'].includes(key)) return `unexpected key ${key}`;
  }
  if (record.requestId !== undefined && typeof record.requestId !== 'string') return 'requestId';
  if (record.fields !== undefined) {
    const fields = record.fields;
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return 'fields';
    if (Object.values(fields).some((value) => typeof value !== 'string')) return 'fields values';
  }
  return undefined;
}
