import { HttpException, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import type { AuthIdentity } from '../../identity/auth/auth-user.js';
import { TooManyAttemptsException } from '../../identity/auth/login-throttle.service.js';
import { SessionsService } from '../../identity/auth/sessions.service.js';
import { REMEMBER_COOKIE, SESSION_COOKIE } from '../../identity/auth/token-extraction.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { createValidationPipe } from '../../platform/http/validation/validation.pipe.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { AccountsService } from '../../identity/accounts/accounts.service.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { RegisterDto } from '../../identity/users/dto/register.dto.js';
import { PasswordSignInService } from '../../identity/users/password-sign-in.service.js';
import { clearSessionCookies, setSessionCookies } from '../../identity/users/session-cookies.js';
import { AccountDisabledException, UsersService } from '../../identity/users/users.service.js';
import { PAGE_STYLESHEET, PAGE_STYLESHEET_PATH } from './page-styles.js';
import {
  homePage,
  messagePage,
  PAGE_PATHS,
  registerPage,
  signInPage,
  type SignInOptions,
} from './page-views.js';
import { isSameOriginPost, publicHostOf } from './same-origin.js';

type Handler = (request: Request, response: Response) => Promise<void>;

const OIDC_FAILED =
  'Single sign-on did not succeed. Try again, or ask your administrator if it keeps failing.';
const ACCOUNT_DISABLED =
  'This account is disabled. Ask your administrator if you should still have access.';
const WRONG_CREDENTIALS = 'Wrong e-mail address or password.';
const CROSS_SITE = 'This form was sent from another site, so it was refused.';
const UNAVAILABLE = 'Trove cannot answer right now. Try again in a moment.';

/** A form field as text ('' when it is missing or not text). */
const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/**
 * Trove's own pages when no web UI directory is set: sign-in (and registration) at `/`, the
 * signed-in page at `/home`, and sign-out. Plain HTML from the server with one stylesheet;
 * every form works without JavaScript, posts only from Trove's own origin, and signs in with
 * the same session cookies as the API's login.
 */
@Injectable()
export class BuiltInPages {
  private readonly logger = new Logger('BuiltInPages');
  private readonly routes: Record<string, Handler> = {
    [`GET ${PAGE_PATHS.signIn}`]: (request, response) => this.showSignIn(request, response),
    [`GET ${PAGE_PATHS.home}`]: (request, response) => this.showHome(request, response),
    [`GET ${PAGE_PATHS.register}`]: (request, response) => this.showRegister(request, response),
    [`POST ${PAGE_PATHS.signInForm}`]: (request, response) => this.signIn(request, response),
    [`POST ${PAGE_PATHS.register}`]: (request, response) => this.register(request, response),
    [`POST ${PAGE_PATHS.signOutForm}`]: (request, response) => this.signOut(request, response),
    [`GET ${PAGE_STYLESHEET_PATH}`]: (_request, response) => this.stylesheet(response),
  };

  constructor(
    private readonly sessions: SessionsService,
    private readonly passwordSignIn: PasswordSignInService,
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly accounts: AccountsService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private routeOf(request: Request): Handler | undefined {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    return this.routes[`${method} ${request.path}`];
  }

  /** Whether a request is for one of these pages (any other goes on to the API). */
  handles(request: Request): boolean {
    return this.routeOf(request) !== undefined;
  }

  /** Answers the requests `handles` picks. */
  handler(): (request: Request, response: Response, next: NextFunction) => void {
    return (request, response, next) => {
      const route = this.routeOf(request);
      if (!route) {
        next();
        return;
      }
      if (request.method === 'POST' && !isSameOriginPost(request, this.publicHost)) {
        this.send(response, 403, messagePage('Refused', CROSS_SITE));
        return;
      }
      route(request, response).catch((error: unknown) => this.failed(response, error));
    };
  }

  private get options(): SignInOptions {
    const options = this.config.get('options', { infer: true });
    const oidc = this.config.get('oidc', { infer: true });
    return {
      localLogin: options.allowLocalLogin,
      registration: options.allowRegistration,
      oidcButton: oidc.enabled ? oidc.buttonText : undefined,
    };
  }

  private get publicHost(): string | undefined {
    return publicHostOf(this.config.get('options', { infer: true }).hostname);
  }

  private async showSignIn(request: Request, response: Response): Promise<void> {
    if (await this.signedIn(request)) {
      response.redirect(302, PAGE_PATHS.home);
      return;
    }
    const { oidc_error: oidcError, oidc_reason: oidcReason } = request.query;
    this.send(
      response,
      200,
      signInPage({
        ...this.options,
        message:
          oidcError === undefined
            ? undefined
            : oidcReason === 'account_disabled'
              ? ACCOUNT_DISABLED
              : OIDC_FAILED,
      }),
    );
  }

  private async showHome(request: Request, response: Response): Promise<void> {
    const identity = await this.signedIn(request);
    if (!identity) {
      response.redirect(302, PAGE_PATHS.signIn);
      return;
    }
    const self = await this.users.getSelf(identity);
    const groups = await this.groups.rolesOf(identity.id);
    this.send(
      response,
      200,
      homePage({
        name: self.name,
        email: self.email,
        groups: groups.map(({ name, role }) => ({ name, role })),
        version: this.config.get('build', { infer: true }).version,
      }),
    );
  }

  private async showRegister(request: Request, response: Response): Promise<void> {
    if (!this.registrationOpen()) {
      response.redirect(302, PAGE_PATHS.signIn);
      return;
    }
    if (await this.signedIn(request)) {
      response.redirect(302, PAGE_PATHS.home);
      return;
    }
    this.send(response, 200, registerPage({}));
  }

  private async signIn(request: Request, response: Response): Promise<void> {
    const email = field(request.body, 'email');
    const refuse = (status: number, message: string): void =>
      this.send(response, status, signInPage({ ...this.options, message, email }));
    if (!this.options.localLogin) return refuse(403, 'Signing in with a password is not enabled.');
    if (email.trim() === '' || field(request.body, 'password') === '') {
      return refuse(422, 'Enter your e-mail address and password.');
    }
    try {
      const session = await this.passwordSignIn.signIn({
        email,
        password: field(request.body, 'password'),
        remember: field(request.body, 'remember') === 'true',
        address: request.ip,
      });
      setSessionCookies(request, response, session, true);
      response.redirect(303, PAGE_PATHS.home);
    } catch (error) {
      if (error instanceof TooManyAttemptsException) {
        response.setHeader('Retry-After', String(error.retryAfterSeconds));
        const wait = error.retryAfterSeconds;
        return refuse(429, `Too many failed attempts. Try again in ${wait} seconds.`);
      }
      if (error instanceof HttpException && error.getStatus() === 401) {
        return refuse(401, WRONG_CREDENTIALS);
      }
      if (error instanceof AccountDisabledException) return refuse(403, ACCOUNT_DISABLED);
      throw error;
    }
  }

  private async register(request: Request, response: Response): Promise<void> {
    const name = field(request.body, 'name');
    const email = field(request.body, 'email');
    const password = field(request.body, 'password');
    if (!this.registrationOpen()) {
      this.send(response, 403, messagePage('Registration', 'Registration is not open.'));
      return;
    }
    const refuse = (status: number, view: { message?: string; problems?: string[] }): void =>
      this.send(response, status, registerPage({ ...view, name, email }));
    let dto: RegisterDto;
    try {
      dto = (await createValidationPipe().transform(
        { name, email, password },
        { type: 'body', metatype: RegisterDto },
      )) as RegisterDto;
    } catch (error) {
      if (!(error instanceof ValidationFailedException)) throw error;
      return refuse(422, {
        problems: Object.entries(error.fields).map(([name, problem]) => `${name}: ${problem}`),
      });
    }
    try {
      await this.accounts.register(dto);
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() < 500) {
        return refuse(error.getStatus(), { message: error.message });
      }
      throw error;
    }
    const session = await this.passwordSignIn.signIn({
      email: dto.email,
      password: dto.password,
      remember: false,
      address: request.ip,
    });
    setSessionCookies(request, response, session, true);
    response.redirect(303, PAGE_PATHS.home);
  }

  /** Ends the session as the API's logout does, and goes back to the sign-in page. */
  private async signOut(request: Request, response: Response): Promise<void> {
    const identity = await this.signedIn(request);
    if (identity?.credential.kind === 'session') {
      await this.sessions.revoke(identity.credential.tokenId);
    }
    clearSessionCookies(request, response);
    response.redirect(303, PAGE_PATHS.signIn);
  }

  private stylesheet(response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'public, max-age=3600');
    response.type('text/css').send(PAGE_STYLESHEET);
    return Promise.resolve();
  }

  private registrationOpen(): boolean {
    const { localLogin, registration } = this.options;
    return localLogin && registration;
  }

  /** The caller of a page: the session cookie's session, if it is valid. */
  private async signedIn(request: Request): Promise<AuthIdentity | undefined> {
    const cookies = request.cookies as Record<string, string | undefined> | undefined;
    const token = cookies?.[SESSION_COOKIE];
    if (!token || cookies?.[REMEMBER_COOKIE] === undefined) return undefined;
    const identity = await this.sessions.authenticate(token, undefined);
    return identity?.credential.kind === 'session' ? identity : undefined;
  }

  private send(response: Response, status: number, body: string): void {
    response.status(status);
    response.setHeader('Cache-Control', 'no-store');
    response.type('html').send(body);
  }

  private failed(response: Response, error: unknown): void {
    const status = error instanceof HttpException ? error.getStatus() : 500;
    if (status >= 500 && status !== 503) this.logger.error(error);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (error instanceof TooManyAttemptsException) {
      response.setHeader('Retry-After', String(error.retryAfterSeconds));
    }
    const message = status >= 500 ? UNAVAILABLE : (error as Error).message;
    this.send(response, status, messagePage('Something went wrong', message));
  }
}
