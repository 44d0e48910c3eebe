import { as, createEntity } from '../support/api.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { cookiesOf } from './console-helpers.js';

/** Creates a location of the member's group through the API (under `parentId` if given). */
export async function createLocation(
  trove: TestApp,
  session: Session,
  name: string,
  parentId?: string,
): Promise<{ id: string; name: string }> {
  const types = (await as(trove, session, 'get', '/api/v1/entity-types').expect(200)).body as {
    id: string;
    isLocation: boolean;
  }[];
  const type = types.find((each) => each.isLocation)!;
  return createEntity(trove, session, { name, entityTypeId: type.id, parentId });
}

/**
 * Creates `count` items named `<prefix> 001`… in `parentId` through the API, twenty at a time;
 * their ids in name order.
 */
export async function createItems(
  trove: TestApp,
  session: Session,
  prefix: string,
  count: number,
  parentId: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 1; start <= count; start += 20) {
    const batch = Array.from({ length: Math.min(20, count - start + 1) }, (_, index) =>
      createEntity(trove, session, {
        name: `${prefix} ${String(start + index).padStart(3, '0')}`,
        parentId,
      }),
    );
    ids.push(...(await Promise.all(batch)).map((item) => item.id));
  }
  return ids;
}

/** Creates a tag of the member's group through the API. */
export async function createTag(
  trove: TestApp,
  session: Session,
  name: string,
): Promise<{ id: string; name: string }> {
  return (await as(trove, session, 'post', '/api/v1/tags').send({ name }).expect(201)).body as {
    id: string;
    name: string;
  };
}

/** The group's entities as stored: name, parent id, archived, tag names, manufacturer. */
export async function storedEntities(trove: TestApp, groupId: string) {
  return trove.query<{
    name: string;
    parent_id: string | null;
    archived: boolean;
    manufacturer: string;
    tags: string[];
  }>(
    `SELECT e.name, e.parent_id, e.archived, e.manufacturer,
       coalesce(array_agg(t.name ORDER BY t.name) FILTER (WHERE t.id IS NOT NULL), '{}') AS tags
     FROM entities e LEFT JOIN entity_tags et ON et.entity_id = e.id
     LEFT JOIN tags t ON t.id = et.tag_id
     WHERE e.group_id = $1 GROUP BY e.id ORDER BY e.name, e.id`,
    [groupId],
  );
}

/**
 * A bulk form posted from Trove's own origin, as a browser sends it: fields given as lists
 * repeat their name (ticked ids, chosen tags).
 */
export function postBulk(
  trove: TestApp,
  session: Session,
  path: string,
  form: Record<string, string | string[]>,
  origin = trove.baseUrl,
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const each of Array.isArray(value) ? value : [value]) body.append(name, each);
  }
  return trove.http
    .post(path)
    .set('Cookie', cookiesOf(session))
    .set('Origin', origin)
    .type('form')
    .send(body.toString());
}

/** The hidden fields of the form posting to `action` on a page, in order, as name and value. */
export function hiddenFieldsOf(html: string, action: string): [string, string][] {
  const start = html.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posts to ${action}`);
  const form = html.slice(start, html.indexOf('</form>', start));
  return [...form.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)].map(
    ([, name, value]) => [name, value.replace(/&amp;/g, '&').replace(/&quot;/g, '"')],
  );
}

/** Fields as a form with repeated names: each name with its list of values. */
export function asForm(fields: [string, string][]): Record<string, string[]> {
  const form: Record<string, string[]> = {};
  for (const [name, value] of fields) (form[name] ??= []).push(value);
  return form;
}
