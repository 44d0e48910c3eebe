import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderOpenApiDocument } from './render-openapi.js';

/** Writes the OpenAPI document of the current code to `openapi/openapi.json`. */
const target = path.resolve(import.meta.dirname, '..', '..', 'openapi', 'openapi.json');
const json = await renderOpenApiDocument();
await mkdir(path.dirname(target), { recursive: true });
await writeFile(target, json);
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
process.exit(0);
