import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { Request } from 'express';
import { CLS_REQ, ClsServiceManager } from 'nestjs-cls';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuthIdentity } from '../../identity/auth/auth-user.js';
import { AfterCommit } from './after-commit.js';

/** Who is changing things in this context, as the history triggers read it. */
export type ChangeActor =
  { userId: string; tokenId: string } | { userId: string; apiKeyId: string };

/** Who and which API operation: what every change made in a request is attributed to. */
export interface ChangeAttribution {
  actor: ChangeActor;
  /** `PUT /api/v1/entities/{id}`. */
  operation: string;
}

/**
 * What the changes made for `request` are attributed to: its authenticated caller and route;
 * nothing before authentication has run, or for a caller that is not a user.
 */
function requestAttribution(
  request: Request & { user?: AuthIdentity },
): ChangeAttribution | undefined {
  const identity = request.user;
  if (!identity) return undefined;
  const { credential } = identity;
  const actor: ChangeActor =
    credential.kind === 'apiKey'
      ? { userId: identity.id, apiKeyId: credential.keyId }
      : { userId: identity.id, tokenId: credential.tokenId };
  const route = (request.route as { path?: string } | undefined)?.path ?? request.path;
  return {
    actor,
    operation: `${request.method} ${route.replace(/:(\w+)/g, '{$1}')}`.slice(0, 255),
  };
}

/**
 * The values of `trove.actor` and `trove.operation` in the current context, '' for the system's:
 * from the request a write's context holds (`changeContext` middleware), read when a unit of work
 * opens, by which time the request is authenticated and routed. A lone statement run outside a
 * unit of work (a create) sets them itself, as transaction-local settings of its own implicit
 * transaction.
 */
export function currentAttribution(): [actor: string, operation: string] {
  const request = ClsServiceManager.getClsService().get<
    (Request & { user?: AuthIdentity }) | undefined
  >(CLS_REQ);
  const attribution = request && requestAttribution(request);
  return attribution ? [JSON.stringify(attribution.actor), attribution.operation] : ['', ''];
}

/**
 * The select list that sets who (`actor`) and which operation (`operation`) as transaction-local
 * settings, from the given parameters: for the adapter below and for a statement that is a unit
 * of work by itself.
 */
export const attributionSettings = (actor: string, operation: string): string =>
  `set_config('trove.actor', ${actor}, true) AS actor, ` +
  `set_config('trove.operation', ${operation}, true) AS operation`;

const ATTRIBUTE_TRANSACTION = `SELECT ${attributionSettings('$1', '$2')}`;

/**
 * The unit-of-work adapter: TypeORM transactions that, when opened in a request with an
 * authenticated caller, first set who and which operation as transaction-local settings
 * (`trove.actor`, `trove.operation`), which the history triggers record with each change. A
 * transaction opened anywhere else (a job, a restore) is the system's. Work deferred to the
 * commit (`Database.afterCommit`) runs once the transaction has committed.
 */
export class AttributedTransactionalAdapter extends TransactionalAdapterTypeOrm {
  constructor(options: ConstructorParameters<typeof TransactionalAdapterTypeOrm>[0]) {
    super(options);
    const plain = this.optionsFactory;
    this.optionsFactory = (dataSource: DataSource) => {
      const options = plain(dataSource);
      return {
        ...options,
        wrapWithTransaction: async (txOptions, fn, setClient): Promise<unknown> => {
          let manager: EntityManager | undefined;
          const committed = new AfterCommit();
          const result: unknown = await options.wrapWithTransaction(
            txOptions,
            async () => {
              committed.attach();
              const [actor, operation] = currentAttribution();
              if (actor && manager) await manager.query(ATTRIBUTE_TRANSACTION, [actor, operation]);
              return (await fn()) as unknown;
            },
            (client?: EntityManager) => {
              manager = client;
              setClient(client);
            },
          );
          // The work runs after the commit and outside it, as a caller's next statement would.
          setClient(undefined);
          await committed.run();
          return result;
        },
      };
    };
  }
}
