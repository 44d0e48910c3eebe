import { Body, Get, Header, HttpException, Post, Query, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { AuthIdentity } from '../../identity/auth/auth-user.js';
import { Public } from '../../identity/auth/decorators/public.decorator.js';
import { TooManyAttemptsException } from '../../identity/auth/login-throttle.service.js';
import { SessionsService } from '../../identity/auth/sessions.service.js';
import { REMEMBER_COOKIE, SESSION_COOKIE } from '../../identity/auth/token-extraction.js';
import { RegistrationService } from '../../identity/users/registration.service.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { RegisterDto } from '../../identity/users/dto/register.dto.js';
import { PasswordSignInService } from '../../identity/users/password-sign-in.service.js';
import { clearSessionCookies, setSessionCookies } from '../../identity/users/session-cookies.js';
import { AccountDisabledException, UsersService } from '../../identity/users/users.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { createValidationPipe } from '../../platform/http/validation/validation.pipe.js';
import { Page } from './page.decorator.js';
import { localTarget } from '../../platform/http/local-target.js';
import { PAGE_PATHS } from './page-paths.js';
import { PAGE_STYLESHEET } from './page-styles.js';
import {
  homePage,
  messagePage,
  registerPage,
  signInPage,
  type SignInOptions,
} from './sign-in.views.js';

const OIDC_FAILED =
  'Single sign-on did not succeed. Try again, or ask your administrator if it keeps failing.';
const ACCOUNT_DISABLED =
  'This account is disabled. Ask your administrator if you should still have access.';
const WRONG_CREDENTIALS = 'Wrong e-mail address or password.';

/** A form field as text ('' when it is missing or not text). */
const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/** `next` when it leads somewhere other than the signed-in page, for the sign-in form. */
const nextOf = (next: unknown): string | undefined => {
  const target = localTarget(next);
  return target === PAGE_PATHS.home ? undefined : target;
};

/**
 * Trove's own sign-in pages: sign-in at `/` (and `/sign-in`, which a web UI directory leaves to
 * Trove, and where a signed-out console page sends the browser), registration, the signed-in page
 * at `/home`, sign-out, and the pages' stylesheet. Plain HTML from the server; every form works
 * without JavaScript, posts only from Trove's own origin, and signs in with the same session
 * cookies as the API's login. With `TROVE_WEB_UI_DIR`, `/`, `/home` and `/register` are the web
 * UI's (it answers them before any route).
 */
@Page('')
export class SignInPagesController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly passwordSignIn: PasswordSignInService,
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly registration: RegistrationService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  @Get()
  @Public()
  showSignIn(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Query('oidc_error') oidcError?: string,
    @Query('oidc_reason') oidcReason?: string,
    @Query('next') next?: string,
  ): Promise<string | undefined> {
    return this.signInForm(request, response, { oidcError, oidcReason, next });
  }

  @Get('sign-in')
  @Public()
  showSignInForm(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Query('oidc_error') oidcError?: string,
    @Query('oidc_reason') oidcReason?: string,
    @Query('next') next?: string,
  ): Promise<string | undefined> {
    return this.signInForm(request, response, { oidcError, oidcReason, next });
  }

  @Post('sign-in')
  @Public()
  async signIn(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<string | undefined> {
    const email = field(body, 'email');
    const next = nextOf(field(body, 'next'));
    const refuse = (status: number, message: string): string => {
      response.status(status);
      return signInPage({ ...this.options(), message, email, next });
    };
    if (!this.options().localLogin)
      return refuse(403, 'Signing in with a password is not enabled.');
    if (email.trim() === '' || field(body, 'password') === '') {
      return refuse(422, 'Enter your e-mail address and password.');
    }
    try {
      const session = await this.passwordSignIn.signIn({
        email,
        password: field(body, 'password'),
        remember: field(body, 'remember') === 'true',
        address: request.ip,
      });
      setSessionCookies(request, response, session, true);
      response.redirect(303, next ?? PAGE_PATHS.home);
      return undefined;
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

  @Get('home')
  @Public()
  async showHome(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string | undefined> {
    const identity = await this.signedIn(request);
    if (!identity) {
      response.redirect(302, PAGE_PATHS.signIn);
      return undefined;
    }
    const self = await this.users.getSelf(identity);
    const groups = await this.groups.rolesOf(identity.id);
    return homePage({
      name: self.name,
      email: self.email,
      groups: groups.map(({ name, role }) => ({ name, role })),
      version: this.config.get('build', { infer: true }).version,
    });
  }

  @Get('register')
  @Public()
  async showRegister(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string | undefined> {
    if (!this.registrationOpen()) {
      response.redirect(302, PAGE_PATHS.signIn);
      return undefined;
    }
    if (await this.signedIn(request)) {
      response.redirect(302, PAGE_PATHS.home);
      return undefined;
    }
    return registerPage({});
  }

  @Post('register')
  @Public()
  async register(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<string | undefined> {
    const name = field(body, 'name');
    const email = field(body, 'email');
    const password = field(body, 'password');
    if (!this.registrationOpen()) {
      response.status(403);
      return messagePage('Registration', 'Registration is not open.');
    }
    const refuse = (status: number, view: { message?: string; problems?: string[] }): string => {
      response.status(status);
      return registerPage({ ...view, name, email });
    };
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
      await this.registration.register(dto);
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
    return undefined;
  }

  /** Ends the session as the API's logout does, and goes back to the sign-in page. */
  @Post('sign-out')
  @Public()
  async signOut(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const identity = await this.signedIn(request);
    if (identity?.credential.kind === 'session') {
      await this.sessions.revoke(identity.credential.tokenId);
    }
    clearSessionCookies(request, response);
    response.redirect(303, PAGE_PATHS.signIn);
  }

  @Get('trove-pages.css')
  @Public()
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  stylesheet(): string {
    return PAGE_STYLESHEET;
  }

  private options(): SignInOptions {
    const options = this.config.get('options', { infer: true });
    const oidc = this.config.get('oidc', { infer: true });
    return {
      localLogin: options.allowLocalLogin,
      registration: options.allowRegistration,
      oidcButton: oidc.enabled ? oidc.buttonText : undefined,
    };
  }

  private async signInForm(
    request: Request,
    response: Response,
    query: { oidcError?: string; oidcReason?: string; next?: string },
  ): Promise<string | undefined> {
    const next = nextOf(query.next);
    if (await this.signedIn(request)) {
      response.redirect(302, next ?? PAGE_PATHS.home);
      return undefined;
    }
    return signInPage({
      ...this.options(),
      next,
      message:
        query.oidcError === undefined
          ? undefined
          : query.oidcReason === 'account_disabled'
            ? ACCOUNT_DISABLED
            : OIDC_FAILED,
    });
  }

  private registrationOpen(): boolean {
    const { localLogin, registration } = this.options();
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
}
