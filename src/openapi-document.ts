import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { MAX_BODY_DEPTH } from './platform/http/body-depth-limit.js';
import type { TroveConfig } from './platform/config/configuration.js';
import { MAX_SOCKETS_PER_USER } from './web/change-feed/change-feed.gateway.js';

/** The OpenAPI 3 document of the running code: operation ids are handler names. */
export function buildOpenApiDocument(app: INestApplication, config: TroveConfig): OpenAPIObject {
  const options = new DocumentBuilder()
    .setTitle('Trove')
    .setDescription(
      'Self-hosted inventory: entities (items and locations), entity types, templates, tags, ' +
        'custom fields, attachments, maintenance. Sign in with `POST /api/v1/users/login` and ' +
        'send the token as `Authorization: Bearer <token>`.\n\n' +
        `Request bodies may nest objects and arrays at most ${MAX_BODY_DEPTH} levels deep ` +
        '(400 otherwise). No text in a body, query or path parameter may contain a NUL ' +
        'character (`\\u0000`) or an unpaired surrogate (`\\ud800`): 422 naming the field for ' +
        'bodies, 400 naming the parameter otherwise.\n\n' +
        '**Change feed.** `GET /api/v1/ws/events` upgrades to a WebSocket; it is not listed ' +
        'below, and a request that does not ask to upgrade is answered 426. Authenticate ' +
        'as for any request (the `Authorization` header, the session cookie, `?access_token=`), ' +
        'or, from a browser, with the subprotocols `hb-auth, <token>` (session or attachment ' +
        'token; the answer selects `hb-auth`). The group is chosen by `X-Tenant` or `?tenant=` ' +
        'as elsewhere. A refused upgrade is answered 401, 403 (not a member of that group), 429 ' +
        `(more than ${MAX_SOCKETS_PER_USER} sockets of one user) or 503, with the usual error ` +
        'body. The server sends text frames `{"event":"entity.mutation"}`, `tag.mutation`, ' +
        '`user.mutation`, `export.mutation` or `import.mutation` once a change to the group ' +
        'commits, and `{"event":"ping"}` every `TROVE_WS_PING_INTERVAL` seconds (10); no frame ' +
        'carries data, so clients fetch ' +
        'what they show again. A socket is closed with 1008 once its session is revoked or its ' +
        'user leaves the group, and with 1001 when the server shuts down.\n\n' +
        '**In the browser.** Outside `/api` and `/swagger`, Trove serves the web UI of ' +
        '`TROVE_WEB_UI_DIR` (Homebox’s), or its own sign-in page at `/` and signed-in page at ' +
        '`/home`; those pages are not operations of this document.',
    )
    .setVersion(config.build.version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'TROVE_SCIM_TOKEN, for `/scim/v2` only' },
      'scim',
    )
    .build();
  return SwaggerModule.createDocument(app, options, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
}
