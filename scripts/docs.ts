import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

/** The pages generated from the code, by path from the repository's root. */
export const GENERATED_PAGES = [
  'docs/configuration.md',
  'docs/routes.md',
  'docs/observability.md',
] as const;

const WIDTH = 100;

/** `text` wrapped at WIDTH columns; lines after the first start with `indent`. */
function wrap(text: string, firstPrefix: string, indent: string): string {
  const lines: string[] = [];
  let line = firstPrefix;
  // A code span is never broken.
  const words = text.match(/`[^`]*`\S*|\S+/g) ?? [];
  for (const word of words) {
    const start = line === firstPrefix || line === indent;
    if (!start && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = indent + word;
    } else line = start ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

interface Variable {
  name: string;
  defaultText: string;
  description: string;
}

interface Section {
  title: string;
  variables: Variable[];
}

const commentText = (raw: string): string =>
  raw
    .replace(/^\/\*\*?/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .join(' ')
    .trim();

/** How a property's initializer reads as a default in the docs. */
function defaultOf(initializer: ts.Expression | undefined, source: ts.SourceFile): string {
  if (!initializer || initializer.kind === ts.SyntaxKind.UndefinedKeyword) return 'unset';
  if (ts.isIdentifier(initializer) && initializer.text === 'undefined') return 'unset';
  if (ts.isStringLiteral(initializer)) {
    return initializer.text === '' ? 'empty' : `\`${initializer.text}\``;
  }
  return `\`${initializer.getText(source)}\``;
}

/**
 * The variables of `EnvironmentVariables` in `src/platform/config/env.ts`, in their sections (the
 * `// --- Title ---` comments), each with its default and its doc comment.
 */
export function readEnvironmentVariables(sourceText: string): Section[] {
  const source = ts.createSourceFile('env.ts', sourceText, ts.ScriptTarget.Latest, true);
  const declaration = source.statements.find(
    (statement): statement is ts.ClassDeclaration =>
      ts.isClassDeclaration(statement) && statement.name?.text === 'EnvironmentVariables',
  );
  if (!declaration)
    throw new Error('src/platform/config/env.ts declares no class EnvironmentVariables');
  const sections: Section[] = [];
  for (const member of declaration.members) {
    if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name)) continue;
    const comments = ts.getLeadingCommentRanges(sourceText, member.pos) ?? [];
    let description = '';
    for (const range of comments) {
      const raw = sourceText.slice(range.pos, range.end);
      const heading = /^\/\/\s*---\s*(.+?)\s*-+\s*$/.exec(raw);
      if (heading) sections.push({ title: heading[1], variables: [] });
      else if (raw.startsWith('/**')) description = commentText(raw);
    }
    if (sections.length === 0) sections.push({ title: 'General', variables: [] });
    if (description === '') throw new Error(`${member.name.text} has no doc comment in env.ts`);
    sections[sections.length - 1].variables.push({
      name: member.name.text,
      defaultText: defaultOf(member.initializer, source),
      description,
    });
  }
  return sections;
}

export function renderConfiguration(envSource: string): string {
  const parts = [
    '# Configuration',
    '',
    wrap(
      'Every setting comes from the environment or an optional `.env` file in the working ' +
        'directory; `.env.example` lists them all with their defaults, in the same order. A bad ' +
        'value stops start-up with a message naming the variable (secret values are never ' +
        'printed). Each variable below is followed by its default in brackets. This page is generated from `src/platform/config/env.ts`, where each variable is ' +
        'declared once with its default and validation: `npm run docs` writes it again, and a ' +
        'test fails while it is stale.',
      '',
      '',
    ),
  ];
  for (const section of readEnvironmentVariables(envSource)) {
    parts.push('', `## ${section.title}`, '');
    for (const variable of section.variables) {
      parts.push(
        wrap(`\`${variable.name}\` (${variable.defaultText}): ${variable.description}`, '- ', '  '),
      );
    }
  }
  return `${parts.join('\n')}\n`;
}

export interface RouteEntry {
  method: string;
  path: string;
  handler: string;
  public: boolean;
  userScope: boolean;
  roles: string[];
  attachmentToken: boolean;
  instanceAdmin?: boolean;
}

/** Where each controller class of `src/` is declared, by class name. */
export async function findControllerFiles(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = await readdir(path.join(root, 'src'), { recursive: true });
  for (const entry of entries.filter((name) => name.endsWith('.controller.ts')).sort()) {
    const file = path.join('src', entry).split(path.sep).join('/');
    const text = await readFile(path.join(root, file), 'utf8');
    for (const match of text.matchAll(/export class (\w+Controller)\b/g)) {
      files.set(match[1], file);
    }
  }
  return files;
}

function access(route: RouteEntry): string {
  if (route.public) return 'public';
  if (route.instanceAdmin) return 'instance administrators';
  if (route.userScope) return 'own account';
  const roles = route.roles.join(', ');
  return route.attachmentToken ? `${roles}; attachment token` : roles;
}

/**
 * Every route with its controller method and file, by file: generated from the route
 * snapshot (test/auth/route-declarations.snapshot.json), which a test keeps equal to the app.
 */
export function renderRoutes(routes: RouteEntry[], controllerFiles: Map<string, string>): string {
  const byFile = new Map<string, RouteEntry[]>();
  for (const route of routes) {
    const controller = route.handler.split('.')[0];
    const file = controllerFiles.get(controller);
    if (!file) throw new Error(`no file declares ${controller}`);
    byFile.set(file, [...(byFile.get(file) ?? []), route]);
  }
  const parts = [
    '# Routes',
    '',
    wrap(
      'Every route of the API with the controller method that answers it, by file, and who may ' +
        "call it (`public`, `instance administrators`, the caller's `own account`, or the group " +
        'roles admitted). ' +
        'Generated from the route snapshot (`test/auth/route-declarations.snapshot.json`) by ' +
        '`npm run docs`; a test fails while it is stale. The change feed ' +
        '(`GET /api/v1/ws/events`) is a WebSocket gateway, `src/web/change-feed/change-feed.gateway.ts`.',
      '',
      '',
    ),
  ];
  for (const file of [...byFile.keys()].sort()) {
    const entries = byFile.get(file) ?? [];
    parts.push('', `## \`${file}\``, '');
    for (const route of entries) {
      parts.push(
        wrap(
          `\`${route.method} ${route.path}\`: \`${route.handler}\` (${access(route)})`,
          '- ',
          '  ',
        ),
      );
    }
  }
  return `${parts.join('\n')}\n`;
}

/** What `src/platform/telemetry/metrics.ts` declares (it imports nothing, so it runs as it is). */
interface MetricsModule {
  SEMANTIC_CONVENTIONS: string;
  TROVE_METRICS: Record<string, MetricEntry>;
  LIBRARY_METRICS: MetricEntry[];
  prometheusName(name: string, kind: string, unit: string): string;
}
interface MetricEntry {
  name: string;
  kind: string;
  unit: string;
  description: string;
  attributes: readonly string[];
  buckets?: readonly number[];
  source?: string;
}

const UNIT_NAMES: Record<string, string> = { s: 'seconds', By: 'bytes', '1': 'ratio' };
const METRICS_START =
  '<!-- metrics: written by npm run docs from src/platform/telemetry/metrics.ts -->';
const METRICS_END = '<!-- end of metrics -->';

async function loadMetrics(source: string): Promise<MetricsModule> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const url = `data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`;
  return (await import(url)) as MetricsModule;
}

/** The list of metrics as exported, each with its Prometheus name, OTLP name, unit and meaning. */
export async function renderMetrics(metricsSource: string): Promise<string> {
  const metrics = await loadMetrics(metricsSource);
  const intro =
    `Names, units and attributes follow OpenTelemetry's semantic conventions ` +
    `v${metrics.SEMANTIC_CONVENTIONS} where they define the metric; Trove's own are named ` +
    '`trove.*`. Each entry gives the name Prometheus shows (the unit as a suffix, `_total` after a ' +
    'counter), then the OTLP name, the type and the unit.';
  const lines: string[] = [METRICS_START, '', wrap(intro, '', ''), ''];
  const entry = (metric: MetricEntry): string => {
    const unit = UNIT_NAMES[metric.unit] ?? (metric.unit.replace(/^\{(.*)\}$/, '$1') || 'no unit');
    const labels = metric.attributes.map((name) => `\`${name.replace(/\./g, '_')}\``);
    const buckets = metric.buckets ? ` Buckets: ${metric.buckets.join(', ')}.` : '';
    const source = metric.source ? ` From ${metric.source}.` : '';
    const text =
      `\`${metrics.prometheusName(metric.name, metric.kind, metric.unit)}\` (\`${metric.name}\`): ` +
      `${metric.kind}, ${unit}.${labels.length > 0 ? ` Labels: ${labels.join(', ')}.` : ''} ` +
      `${metric.description}.${buckets}${source}`;
    return wrap(text, '- ', '  ');
  };
  for (const metric of Object.values(metrics.TROVE_METRICS)) lines.push(entry(metric));
  for (const metric of metrics.LIBRARY_METRICS) lines.push(entry(metric));
  lines.push('', METRICS_END);
  return lines.join('\n');
}

/** `page` with the part between the metrics markers written anew. */
function withMetrics(page: string, metrics: string): string {
  const start = page.indexOf(METRICS_START);
  const end = page.indexOf(METRICS_END);
  if (start === -1 || end === -1)
    throw new Error('docs/observability.md lacks the metrics markers');
  return page.slice(0, start) + metrics + page.slice(end + METRICS_END.length);
}

/** Each generated page's content from the code as it is now. */
export async function renderGeneratedPages(root: string): Promise<Record<string, string>> {
  const envSource = await readFile(path.join(root, 'src/platform/config/env.ts'), 'utf8');
  const routes = JSON.parse(
    await readFile(path.join(root, 'test/auth/route-declarations.snapshot.json'), 'utf8'),
  ) as RouteEntry[];
  const metricsSource = await readFile(
    path.join(root, 'src/platform/telemetry/metrics.ts'),
    'utf8',
  );
  const observability = await readFile(path.join(root, 'docs/observability.md'), 'utf8');
  return {
    'docs/configuration.md': renderConfiguration(envSource),
    'docs/routes.md': renderRoutes(routes, await findControllerFiles(root)),
    'docs/observability.md': withMetrics(observability, await renderMetrics(metricsSource)),
  };
}
