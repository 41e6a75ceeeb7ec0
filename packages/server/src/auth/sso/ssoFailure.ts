import type { SsoErrorCode } from '@lantern/shared';

/** A single sign-on that did not succeed: the code the Login page explains, the detail the log keeps. */
export class SsoFailure extends Error {
  constructor(
    readonly code: SsoErrorCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'SsoFailure';
  }
}
