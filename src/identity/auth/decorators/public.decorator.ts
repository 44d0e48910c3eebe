import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'trove:isPublic';

/** Marks a route that needs no token; every other route is denied without one. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);
